"""The command-line options every benchmark shares: `--policy` (the one policy grammar) and the
LLM endpoint options, so each sub-command spells them the same way."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from policies.specs import SpecOptions, split_specs

POLICY_HELP = (
    "a policy SPEC, repeatable or comma-separated: a built-in NAME, llm:SLUG, py:MODULE:FACTORY, "
    "bf:PATH, cmd:COMMAND (uci:COMMAND and cli:COMMAND where the game takes them)"
)


def add_policy_option(
    parser: argparse.ArgumentParser,
    *,
    aliases: Sequence[str] = (),
    default: str | None = None,
    builtins: str = "",
) -> None:
    """`--policy SPEC` plus older flag names kept as documented aliases (same meaning)."""
    help_text = POLICY_HELP + (f"; built-ins: {builtins}" if builtins else "")
    if default:
        help_text += f" (default: {default})"
    parser.add_argument(
        "--policy", *aliases, dest="policy", action="append", metavar="SPEC", help=help_text
    )
    parser.set_defaults(policy_default=default)


def policies_from(args: argparse.Namespace) -> list[str]:
    """The specs given (or the default), in order, without duplicates."""
    given = args.policy or ([args.policy_default] if args.policy_default else [])
    return split_specs(given)


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """Where `llm:SLUG` policies come from."""
    parser.add_argument(
        "--models-file",
        metavar="PATH",
        help="model registry (TOML or JSON) for llm:SLUG policies (default: the built-in one)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="OpenAI-compatible endpoint for llm:SLUG policies, e.g. http://127.0.0.1:11434/v1",
    )


def spec_options(args: argparse.Namespace, **more: object) -> SpecOptions:
    """SpecOptions from the parsed model options (and any field given in `more`)."""
    return SpecOptions(
        models_file=getattr(args, "models_file", None),
        base_url=getattr(args, "base_url", None),
        **more,  # type: ignore[arg-type]
    )
