"""`python -m xiangshe …` is the `xiangshe` command."""

from xiangshe.verify import main

main()
