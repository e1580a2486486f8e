"""What the repository's command-line scripts share: a parser that refuses an option given
twice, a main wrapper for Ctrl-C, a closed pipe and a full disk, the check that an output is
no input, input read as the package reads it and outputs written all or none.

    from membench import cli
    ap = cli.ArgumentParser(...)                       # --slowdown 5 --slowdown 50: exit 2
    cli.refuse_output_is_input("tool", out, [inp])     # out.json is in.json by another name: exit 2
    text = cli.read_text("tool", path)                 # unreadable, not UTF-8, a device, 512 MiB: exit 2
    doc = cli.read_json("tool", path)                  # and not JSON, or a key given twice: exit 2
    cli.write_outputs("tool", {a: text, b: text})      # both written, or neither changed: exit 2
    if __name__ == "__main__":
        cli.run_main(main)                             # Ctrl-C: "interrupted", exit 130
"""
import argparse
import json
import os
import stat
import sys
import tempfile

from .results import parse_document, read_input

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


class _StdoutError(OSError):
    """A write to standard output that failed (a full disk): kept apart from the OSError of
    any other file, which stays the fault it is."""


class _Stdout:
    """sys.stdout, its write failures raised as _StdoutError; everything else its own."""

    def __init__(self, stream):
        self._stream = stream

    def _marked(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:  # a reader that has gone: run_main ends quietly
            raise
        except OSError as e:
            raise _StdoutError(e.errno, e.strerror) from e

    def write(self, text):
        return self._marked(self._stream.write, text)

    def flush(self):
        return self._marked(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _stdout_to_devnull():
    """Standard output onto devnull: the flush at exit then finds nothing to fail on."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run_main(main, prog=None):
    """Runs main() and exits with what it returns, but Ctrl-C is one line, `interrupted`, and
    exit 130 (128 + SIGINT, as a shell reports a program the signal ended), never a traceback;
    a reader that has gone (`| head -1`) ends the script quietly; and standard output that
    cannot be written (a full disk) is one line and exit 2, as the C++ tools say it: output
    that did not arrive is no success."""
    prog = prog or os.path.basename(sys.argv[0])
    stdout = sys.stdout
    try:
        try:
            if stdout is not None and not isinstance(stdout, _Stdout):
                sys.stdout = _Stdout(stdout)
            code = main()
        finally:
            try:
                sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
            finally:
                sys.stdout = stdout
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        # As the Python documentation recommends: stdout onto devnull, so that the flush at
        # exit finds nothing to fail on. Exit 141 (128 + SIGPIPE), not 0: what a shell reports
        # for a C tool the closed pipe ended, so `set -o pipefail` treats both alike, and the
        # output was cut short, which 0 would hide from a caller that reads the status.
        _stdout_to_devnull()
        sys.exit(141)
    except _StdoutError as e:
        print(f"{prog}: standard output cannot be written: {e.strerror or e}", file=sys.stderr)
        _stdout_to_devnull()
        sys.exit(2)
    sys.exit(code)


def fail(prog, message):
    """Exit 2 with one line on stderr: a bad argument or an input that cannot be used."""
    print(f"{prog}: {message}", file=sys.stderr)
    sys.exit(2)


def read_text(prog, path):
    """The UTF-8 text of `path`, read as membench.read_input reads (a device such as /dev/zero,
    a folder, a FIFO no one writes or more than 512 MiB refused, never waited on or read until
    memory runs out); exit 2 naming it where it cannot be read (a bad argument)."""
    try:
        data = read_input(path)
    except OSError as e:
        fail(prog, f"{path}: cannot be read: {e.strerror or e}")
    except ValueError as e:  # read_input's message names the path
        fail(prog, str(e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(prog, f"{path}: cannot be read: not UTF-8: {e}")


def read_json(prog, path, text=None):
    """`path`'s JSON (of `text`, where it was read already), as membench.read_document reads it:
    exit 2 naming it where it is not JSON or an object gives a key twice (the last value
    winning silently hides which one the file meant)."""
    try:
        return parse_document(read_text(prog, path) if text is None else text, path)
    except json.JSONDecodeError as e:  # json's words do not name the file
        fail(prog, f"{path}: not JSON: {e}")
    except ValueError as e:
        fail(prog, str(e))


def _mode_for(path):
    """The permissions a file written at `path` keeps: its own where it is there, else what
    open() would give a new file (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _in_place(target):
    """Whether an output is written where it is, not moved over: a device or a pipe that is
    there (/dev/null, /dev/stdout) must never be replaced by a file."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def write_outputs(prog, outputs):
    """Writes {path: text} (UTF-8) all or none: each into a file beside its path first, then
    each moved over it, so an output that cannot be written (a folder, a full disk) leaves
    every output as it was; exit 2 naming it. A link is written through, as open() does; a
    device or pipe (/dev/null) is written in place, last."""
    temps, path = [], None
    try:
        for path, text in outputs.items():
            target = os.path.realpath(path)
            if os.path.isdir(target):
                raise IsADirectoryError(0, "a folder", path)
            if _in_place(target):
                continue
            fd, temp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.")
            temps.append((temp, target, path))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(temp, _mode_for(target))
    except BaseException as e:  # Ctrl-C too: no half-written file left beside an output
        for temp, _, _ in temps:
            os.unlink(temp)
        if not isinstance(e, OSError):
            raise
        fail(prog, f"{path}: cannot be written: {e.strerror or e}; no output changed")
    moved = {path for _, _, path in temps}
    try:
        for temp, target, path in temps:  # a move within one folder: only a broken file system fails it
            os.replace(temp, target)
        for path in (p for p in outputs if p not in moved):
            with open(path, "w", encoding="utf-8") as f:
                f.write(outputs[path])
    except OSError as e:
        fail(prog, f"{path}: cannot be written: {e.strerror or e}")


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
