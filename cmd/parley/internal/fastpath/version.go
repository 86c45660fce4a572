package fastpath

import (
	"io"

	"github.com/parleyhq/parley/internal/buildstamp"
	"github.com/parleyhq/parley/internal/lean"
	"github.com/parleyhq/parley/internal/termsafe"
)

// versionLine reads args as "parley --version" or "parley version", with
// the global flags cobra accepts beside them (--json, and --root and
// --vault with their values, which the version never reads): ok is false
// for any other command line, and for the forms left to cobra (short
// flags, "--", a boolean flag given a value, both spellings at once).
func versionLine(args []string) (json, ok bool) {
	asked := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--version" || a == "version":
			if asked {
				return false, false
			}
			asked = true
		case a == "--json":
			json = true
		case a == "--root" || a == "--vault":
			if i+1 == len(args) {
				return false, false
			}
			i++
		case lean.HasPrefix(a, "--root=") || lean.HasPrefix(a, "--vault="):
		default:
			return false, false
		}
	}
	return json, asked
}

// printVersion prints what "parley --version" prints, as the command
// prints it (through termsafe on a terminal), when args ask for the
// version and this binary's build record can be read without
// runtime/debug (buildstamp.Read). handled is false, with nothing
// written, otherwise. Once it has written, it has answered: err is the
// error of a --json line that could not be written, which the command
// says (exit status 1); the plain line's, the command ignores.
func printVersion(args []string, stdout io.Writer) (handled bool, err error) {
	json, ok := versionLine(args)
	if !ok {
		return false, nil
	}
	info, ok := buildstamp.Read()
	if !ok {
		return false, nil
	}
	var line []byte
	if json {
		line = info.AppendJSON(make([]byte, 0, 256))
	} else {
		line = []byte(info.String())
	}
	line = append(line, '\n')
	if termsafe.IsTerminal(stdout) {
		w := termsafe.NewWriter(stdout)
		_, err = w.Write(line)
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
	} else {
		_, err = stdout.Write(line)
	}
	if !json {
		return true, nil
	}
	return true, err
}
