package consensus

import (
	"bytes"

	"github.com/parleyhq/parley/vault"
)

// evidenceHeading opens a record's section of evidence checks (see
// writeEvidence).
const evidenceHeading = "## Evidence References"

// redactedEvidence is what a redacted record says in place of its
// evidence checks.
const redactedEvidence = "_Not shown to this reader: the checks would tell about files in the workspace. " +
	"The debate's transcript says of each reference only whether it was found._\n\n"

// RedactEvidence returns a record's page (its whole file, or its body
// alone) as a reader who may not learn about the workspace (an untrusted
// MCP client over HTTP) may see it: the frontmatter's evidence_lines (the
// hash of every cited line, which confirms a guess at its content) are
// emptied, and the Evidence References section (its checks give line
// counts and tell a path outside the workspace from one that does not
// exist) is replaced by a note. page is not changed; a page whose
// frontmatter cannot be edited is an error (the caller shows nothing).
func RedactEvidence(page []byte) ([]byte, error) {
	out := page
	if _, _, ok := vault.SplitFrontmatter(page); ok {
		var fm map[string]any
		if _, err := vault.DecodeFrontmatter(page, &fm); err != nil {
			return nil, err
		}
		if _, has := fm["evidence_lines"]; has {
			var err error
			if out, err = vault.EditFrontmatter(page, vault.Frontmatter{{Key: "evidence_lines", Value: nil}}); err != nil {
				return nil, err
			}
		}
	}
	return redactEvidenceSection(out), nil
}

// redactEvidenceSection replaces the lines of every Evidence References
// section of a record's Markdown, up to the next heading of its level or
// above, with redactedEvidence.
func redactEvidenceSection(md []byte) []byte {
	var b bytes.Buffer
	in := false
	for rest := md; len(rest) > 0; {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		full := rest[:len(rest)-len(next)]
		rest = next
		text := bytes.TrimRight(line, " \t\r")
		switch {
		case string(text) == evidenceHeading:
			b.Write(full)
			b.WriteString("\n" + redactedEvidence)
			in = true
		case in && (bytes.HasPrefix(text, []byte("## ")) || bytes.HasPrefix(text, []byte("# "))):
			b.Write(full)
			in = false
		case !in:
			b.Write(full)
		}
	}
	return b.Bytes()
}
