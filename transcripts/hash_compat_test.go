package transcripts_test

import (
	"testing"

	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// A page filed by an earlier parley keeps the content hash its seal
// recorded: unquoted dates and times (parley writes "date: 2026-12-01")
// are read as the text they are, at any depth, not as times. The hash
// below is what the release before the frontmatter reader changed
// computed for this page; a reader that turns the dates into times
// reports every record filed before it as tampered.
func TestContentHashOfAPageFiledEarlier(t *testing.T) {
	page := "---\ntype: \"consensus\"\ndate: 2026-12-01\ncreated: \"2026-12-01T22:10:31.086Z\"\nstamp: 2026-12-01T22:10:31Z\ntranscript_events: 10\nsupersedes:\nratio: 0.5\nnested:\n  when: 2026-05-14\n  list: [2026-01-02, \"x\"]\nstatus: \"active\"\n---\n# Title\n\nBody text.\n"
	p, err := vault.ParsePage("wiki/consensus/x.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transcripts.ContentHash(p), "c02e2f52d40bf49de3d187210820f9394bbb117d542a8f9125761d0dc23e6cbf"; got != want {
		t.Errorf("content hash %s, want %s (the earlier release's); meta %#v", got, want, p.Meta)
	}
	if d, ok := p.Meta["date"].(string); !ok || d != "2026-12-01" {
		t.Errorf("date %#v, want the string 2026-12-01", p.Meta["date"])
	}
}
