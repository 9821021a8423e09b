from webfovea.cli.main import main

main()
