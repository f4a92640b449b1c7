"""The static results site (`arcade-eval site`): one generic builder, pages added by benchmarks.

`build.SiteBuild` lays pages out (nav, footer, inline data, replay pages); each benchmark's
`site` hook (`evaluation/core/registry.py`) adds its own pages. No benchmark is imported here.
"""
