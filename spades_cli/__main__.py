from spades_cli.cli.main import main

main()
