"""One id per game (issue 21, item 4): primitive-control Tetris is `tetris-primitive` in the policy
grammar, as `arcade-eval play` calls it; the older `tetris-controls` still finds the same game,
policies, prompt and SB3 adapter wherever a game name is read."""

from __future__ import annotations

import pytest

from arcade_gym.games import descriptor, descriptors, policy_game, policy_games
from arcade_gym.tetris.primitive_game import TetrisControlGame
from evaluation.benchmarks.narcade.protocol import POLICY_GAMES
from evaluation.play.catalogue import play_setups
from policies.game_policies import UnknownGameError, policies_for
from policies.llm import prompt_for
from policies.sb3.games import adapter_for, sb3_games
from policies.specs import SpecError, make_policy

OLD, NEW = "tetris-controls", "tetris-primitive"


def test_primitive_tetris_has_one_name_in_every_layer() -> None:
    (entry,) = [e for e in descriptor("tetris").envs if e.id == "TetrisPrimitive-v3"]
    assert entry.game == NEW and entry.game_aliases == (OLD,)
    assert NEW in policy_games() and OLD not in policy_games()
    assert POLICY_GAMES["tetris"] == NEW
    assert play_setups()[NEW].game == "tetris"
    assert policies_for(NEW).game == NEW
    assert NEW in sb3_games() and OLD not in sb3_games()


def test_the_old_name_finds_the_same_game_policies_prompt_and_adapter() -> None:
    assert descriptor(OLD) is descriptor(NEW) is descriptor("tetris")
    assert policy_game(OLD) == policy_game(NEW) == NEW
    assert policies_for(OLD) is policies_for(NEW)
    assert adapter_for(OLD) is adapter_for(NEW) is not None
    question = TetrisControlGame("seed-01").question()
    old, new = prompt_for(OLD), prompt_for(NEW)
    assert old.messages(question) == new.messages(question)


def test_a_policy_built_under_the_old_name_plays_as_under_the_new_one() -> None:
    question = TetrisControlGame("seed-03").question()
    old, new = make_policy("heuristic", OLD), make_policy("heuristic", NEW)
    assert type(old) is type(new) and old.name == new.name
    assert old.act(question, None) == new.act(question, None)


def test_other_names_keep_their_meaning_and_unknown_names_are_refused() -> None:
    for game in descriptors():
        for name in game.games:
            assert policy_game(name) == name
    with pytest.raises(KeyError):
        policy_game("tetris-knobs")
    with pytest.raises(UnknownGameError, match=NEW):
        policies_for("tetris-knobs")
    with pytest.raises(SpecError):
        make_policy("heuristic", "tetris-knobs")
