"""cli.py - the entry point that the benchmark generators share
(bench/gen_transformer.py, bench/gen_cnn.py): main(argv) on the command
line's arguments, then stdout flushed; a reader that closes the pipe early
(`| head`) ends the generator with exit 1 and no traceback."""
import sys


def run(main):
    try:
        main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:        # e.g. piped into head
        sys.stderr.close()
        sys.exit(1)
