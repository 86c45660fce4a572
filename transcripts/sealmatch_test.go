package transcripts

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/vault"
)

// TestSealMatchesWhatAnEditorDoesToTheEnd: an editor or a hook that keeps
// one final newline (pre-commit's end-of-file-fixer, an editor's "trim
// final newlines"), or adds one, changes no text of a record, and its seal
// holds; a line of the text changed, or a blank line put within it (which
// can split a table or a paragraph), is still an edit after filing.
func TestSealMatchesWhatAnEditorDoesToTheEnd(t *testing.T) {
	t.Parallel()
	const filed = "---\ntype: consensus\ntopic: \"Idempotency keys\"\n---\n# Idempotency keys\n\n## Key Rounds Summary\n\n| Round | Attacker | Defender |\n|---|---|---|\n| 1 | a | d |\n| 2 | b | d |\n\nFull transcript: [[debates/x]].\n\n"
	parse := func(data string) *vault.Page {
		t.Helper()
		page, err := vault.ParsePage("wiki/consensus/spec-idempotency-keys.md", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return page
	}
	sealed := ContentHash(parse(filed))
	for name, tc := range map[string]struct {
		data  string
		holds bool
	}{
		"as filed":                         {filed, true},
		"one final newline":                {strings.TrimSuffix(filed, "\n"), true},
		"no final newline":                 {strings.TrimRight(filed, "\n"), true},
		"blank lines added at the end":     {filed + "\n\n", true},
		"one final newline, CRLF":          {strings.ReplaceAll(strings.TrimSuffix(filed, "\n"), "\n", "\r\n"), true},
		"a key of the reader's, trimmed":   {strings.Replace(strings.TrimSuffix(filed, "\n"), "type:", "aliases: [keys]\ntype:", 1), true},
		"a blank line within the table":    {strings.Replace(filed, "| 1 | a | d |\n", "| 1 | a | d |\n\n", 1), false},
		"a line of text changed":           {strings.Replace(filed, "| 2 | b |", "| 2 | c |", 1), false},
		"text added at the end":            {filed + "Agreed by me.\n", false},
		"a blank line after the heading":   {strings.Replace(filed, "# Idempotency keys\n", "# Idempotency keys\n\n", 1), false},
		"a trailing space on the last one": {strings.TrimRight(filed, "\n") + " \n", false},
	} {
		if got := SealMatches(parse(tc.data), sealed); got != tc.holds {
			t.Errorf("%s: the seal holds %v, want %v", name, got, tc.holds)
		}
	}
}
