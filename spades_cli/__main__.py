from spades_cli.cli import main

main()
