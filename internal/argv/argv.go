// Package argv reads the words of a command line before a flag parser
// does: past the global flags to the first word, which names the command.
// It knows the global flags only as the caller lists them.
//
// It imports nothing of parley.
package argv

import "strings"

// Globals are the flags a command line may give before the command's name.
type Globals struct {
	// Valued take a value: "--root V" (the next word) or "--root=V".
	Valued []string
	// Switches take none: "--json", "-v"; a long one also as "--json=V".
	Switches []string
}

// flag reports whether arg is one of the global flags, and whether it
// takes the next word as its value.
func (g Globals) flag(arg string) (ok, takesNext bool) {
	for _, f := range g.Valued {
		if arg == f {
			return true, true
		}
		if strings.HasPrefix(arg, f+"=") {
			return true, false
		}
	}
	for _, f := range g.Switches {
		if arg == f || strings.HasPrefix(f, "--") && strings.HasPrefix(arg, f+"=") {
			return true, false
		}
	}
	return false, false
}

// Command is the first word of args after the global flags (with their
// values), or "" when something else comes first (another flag, --,
// nothing).
func (g Globals) Command(args []string) string {
	for i := 0; i < len(args); i++ {
		ok, next := g.flag(args[i])
		switch {
		case next:
			i++ // the value
		case ok:
		case strings.HasPrefix(args[i], "-"):
			return ""
		default:
			return args[i]
		}
	}
	return ""
}

// Only reports whether args give the switch flag and, besides it, nothing
// but global flags (parley --json --version).
func (g Globals) Only(args []string, flag string) bool {
	given := false
	for i := 0; i < len(args); i++ {
		ok, next := g.flag(args[i])
		switch {
		case args[i] == flag:
			given = true
		case next:
			i++
		case ok:
		default:
			return false
		}
	}
	return given
}
