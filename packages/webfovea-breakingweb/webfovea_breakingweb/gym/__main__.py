"""`python -m webfovea_breakingweb.gym`: rewrite ids.json from the live registries."""

from webfovea_breakingweb.gym.registration import main

main()
