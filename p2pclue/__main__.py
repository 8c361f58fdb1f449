import sys

from p2pclue.cli import main

sys.exit(main())
