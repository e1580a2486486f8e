"""What the repository's command-line scripts share: a parser that refuses an option given
twice, a main wrapper for Ctrl-C and a closed pipe, and the check that an output is no input.

    from membench import cli
    ap = cli.ArgumentParser(...)                       # --slowdown 5 --slowdown 50: exit 2
    cli.refuse_output_is_input("tool", out, [inp])     # out.json is in.json by another name: exit 2
    text = cli.read_text("tool", path)                 # unreadable or not UTF-8: one line, exit 2
    if __name__ == "__main__":
        cli.run_main(main)                             # Ctrl-C: "interrupted", exit 130
"""
import argparse
import os
import sys

# The actions that keep one value: given twice, argparse keeps the last and drops the first
# silently. Those meant to repeat (append, count, extend) or to take several values (nargs)
# are left as argparse has them.
_ONCE = ("store", "store_const", "store_true", "store_false")


def _once(base):
    """`base` (an argparse store action) refusing a second use of its option in one parse."""
    class Once(base):
        def __call__(self, parser, namespace, values, option_string=None):
            given = getattr(parser, "_membench_given", None)
            if given is not None and self.option_strings and (self.nargs is None or self.nargs == 0):
                if self.dest in given:
                    raise argparse.ArgumentError(self, "given twice: give it once (which one was meant is unknown)")
                given.add(self.dest)
            super().__call__(parser, namespace, values, option_string)
    Once.__name__ = f"Once{base.__name__}"
    return Once


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, but an option that keeps one value refuses to be given twice (exit 2,
    naming it): with argparse's own, `--slowdown 5 --slowdown 50` silently means 50."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Registered, not wrapped in add_argument: argument groups share the registry.
        for name in _ONCE:
            self.register("action", name, _once(self._registry_get("action", name)))
        self.register("action", None, self._registry_get("action", "store"))
        self._membench_given = None

    def parse_known_args(self, args=None, namespace=None):
        outer = self._membench_given
        self._membench_given = set()  # a fresh count for each parse
        try:
            return super().parse_known_args(args, namespace)
        finally:
            self._membench_given = outer


def run_main(main, prog=None):
    """Runs main() and exits with what it returns, but Ctrl-C is one line, `interrupted`, and
    exit 130 (128 + SIGINT, as a shell reports a program the signal ended), never a traceback;
    and a reader that has gone (`| head -1`) ends the script quietly."""
    prog = prog or os.path.basename(sys.argv[0])
    try:
        try:
            code = main()
        finally:
            sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        # As the Python documentation recommends: stdout onto devnull, so that the flush at
        # exit finds nothing to fail on. Exit 141 (128 + SIGPIPE), not 0: what a shell reports
        # for a C tool the closed pipe ended, so `set -o pipefail` treats both alike, and the
        # output was cut short, which 0 would hide from a caller that reads the status.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)
    sys.exit(code)


def fail(prog, message):
    """Exit 2 with one line on stderr: a bad argument or an input that cannot be used."""
    print(f"{prog}: {message}", file=sys.stderr)
    sys.exit(2)


def read_text(prog, path):
    """The UTF-8 text of `path`; exit 2 naming it where it cannot be read (a bad argument)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        fail(prog, f"{path}: cannot be read: {getattr(e, 'strerror', None) or e}")


def same_file(a, b):
    """Whether paths `a` and `b` name one file: through a symbolic link, '..' or a hard link
    (os.path.samefile); where either is not there, whether both resolve to one path."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_output_is_input(prog, output, inputs):
    """Exit 2, one line, where `output` is one of `inputs` by any spelling: writing it would
    replace the input it is made from. Nothing is written; the input is kept."""
    for given in inputs:
        if same_file(output, given):
            print(f"{prog}: {output} is the input {given} (the same file): it would be overwritten; "
                  f"nothing written, {given} kept", file=sys.stderr)
            sys.exit(2)


def refuse_same_input(prog, what, paths):
    """Exit 2, one line, where two of `paths` (the inputs of one comparison) are one file:
    a file set against itself agrees by construction and proves nothing."""
    for i, a in enumerate(paths):
        for b in paths[i + 1:]:
            if same_file(a, b):
                print(f"{prog}: {what}: {a} and {b} are the same file: compared with itself it shows "
                      "no difference by construction", file=sys.stderr)
                sys.exit(2)
