import sys

from stratagem.cli import main

sys.exit(main())
