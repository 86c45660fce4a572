package textview

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/app"
)

// LintFindings writes what vault lint found, one line each (kind, page,
// and the other record, the link or the reference with the problem); with
// none, that nothing was found in the vault at vault.
func LintFindings(w io.Writer, found []app.LintFinding, vault string) error {
	o := &recOut{w: w}
	for _, f := range found {
		line := fmt.Sprintf("%-13s  %s", f.Kind, f.Page)
		switch {
		case f.Other != "" && len(f.Differences) > 0:
			line += "  ↔  " + f.Other + ": " + strings.Join(f.Differences, "; ")
		case f.Other != "":
			// An unmarked supersession: the problem says what to set.
			line += "  ↔  " + f.Other + ": " + f.Problem
		case f.Link != "":
			line += "  " + f.Link + ": " + f.Problem
		case f.Ref != "":
			line += "  " + f.Ref + ": " + f.Problem
		default:
			line += ": " + f.Problem
		}
		o.printf("%s\n", recLine(line, 0))
	}
	if len(found) == 0 && o.err == nil {
		_, o.err = fmt.Fprintf(w, "vault lint: nothing found in %s\n", filepath.Clean(vault))
	}
	return o.err
}
