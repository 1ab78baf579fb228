import sys

from vision.cli import main

sys.exit(main())
