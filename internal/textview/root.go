package textview

import (
	"fmt"
	"io"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/app"
)

// Initialized writes what "parley init" found and made: the root, the
// vault, and the directories created (or that there were none to create).
func Initialized(w io.Writer, r *app.Initialized) error {
	var b strings.Builder
	fmt.Fprintf(&b, "parley root:  %s\nparley vault: %s\n", r.Root, r.Vault)
	if len(r.Created) == 0 {
		b.WriteString("already set up: nothing created\n")
	} else {
		fmt.Fprintf(&b, "created %d director%s:\n", len(r.Created), Plural(len(r.Created), "y", "ies"))
	}
	for _, d := range r.Created {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Collected writes the one line of "parley gc": what it removed and
// pruned; olderThan is the age as the user gave it.
func Collected(w io.Writer, st app.Collected, olderThan string) error {
	pruned := ""
	if len(st.Pruned) > 0 {
		pruned = ": " + strings.Join(st.Pruned, ", ")
	}
	if st.RegistrationsOnly {
		_, err := fmt.Fprintf(w, "removed %d stale staging file(s); pruned %d dead registration(s)%s (this messenger keeps no acknowledged messages: nothing else to collect)\n",
			st.Staging, len(st.Pruned), pruned)
		return err
	}
	_, err := fmt.Fprintf(w, "removed %d message(s) acknowledged more than %s ago, %d stale staging file(s); pruned %d dead registration(s)%s\n",
		st.Acked, olderThan, st.Staging, len(st.Pruned), pruned)
	return err
}

// ConfigSource is the line on stderr that names where the effective
// configuration came from.
func ConfigSource(w io.Writer, c *app.ConfigSource) error {
	source := c.Path
	if !c.Found {
		source = "no " + c.Path + ": all defaults"
	}
	_, err := fmt.Fprintf(w, "parley: effective configuration (%s)\n", source)
	return err
}

// Config writes the effective configuration as an indented config.json.
func Config(w io.Writer, c *app.ConfigSource) error {
	b, err := json.MarshalIndent(c.Effective, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
