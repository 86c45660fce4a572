package consensus

import (
	"strings"
	"testing"
)

func TestRedactEvidence(t *testing.T) {
	t.Parallel()
	const section = "## Evidence References\n\n" +
		"- ` secret.txt:1 ` — ok (line; cited by A, round 1)\n" +
		"- ` secret.txt:40 ` — out\\_of\\_range: the file has 3 lines (line; cited by A, round 1)\n\n"
	const rest = "## Rationale\n\nBecause.\n"
	const head = "# Leak test\n\n## Final Position\n\n> Use keys\n\n"
	redacted := "## Evidence References\n\n" + redactedEvidence
	for _, c := range []struct {
		name, page, want string
	}{
		{"a whole file",
			"---\nverdict: \"CONSENSUS_REACHED\"\nevidence_lines: [\"e24c secret.txt:1\"]\nstatus: active\n---\n" + head + section + rest,
			"---\nverdict: \"CONSENSUS_REACHED\"\nevidence_lines:\nstatus: active\n---\n" + head + redacted + rest},
		{"a body", head + section + rest, head + redacted + rest},
		{"the section last", head + section, head + redacted},
		{"CRLF line ends", strings.ReplaceAll(head+section+rest, "\n", "\r\n"),
			strings.ReplaceAll(head, "\n", "\r\n") + "## Evidence References\r\n\n" + redactedEvidence + strings.ReplaceAll(rest, "\n", "\r\n")},
		{"no evidence section", head + rest, head + rest},
		{"no evidence_lines", "---\nstatus: active\n---\n" + head + rest, "---\nstatus: active\n---\n" + head + rest},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := RedactEvidence([]byte(c.page))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
	if _, err := RedactEvidence([]byte("---\nevidence_lines: [\n---\nbody\n")); err == nil {
		t.Error("a frontmatter that does not decode: no error")
	}
}
