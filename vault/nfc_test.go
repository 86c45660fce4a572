package vault

import (
	"context"
	"testing"
)

// A file name and a link may spell an accented letter in two ways: é as
// one code point (NFC, what keyboards type) or as e and a combining accent
// (NFD, how macOS's HFS+ stored names, and how a vault synced from a Mac
// keeps them). The Mac's file system takes either for the other, and so
// does Obsidian there: a link resolves whichever form each side uses.
func TestLinksMatchNamesInAnyUnicodeForm(t *testing.T) {
	t.Parallel()
	const (
		cafeNFD = "Cafe\u0301" // as HFS+ stores it
		cafeNFC = "Caf\u00e9"  // as typed
		zoeNFC  = "Zo\u00eb"
		zoeNFD  = "Zoe\u0308"
	)
	v := newVault(t, map[string]string{
		"index.md":                  "---\ntype: index\n---\n[[" + cafeNFC + "]] [[notes/" + zoeNFD + "]]\n",
		"notes/" + cafeNFD + ".md":  "# café\n",
		"notes/" + zoeNFC + ".md":   "# zoë\n",
		"notes/" + cafeNFC + "s.md": "[[" + zoeNFD + "|Zoë]] [[index]]\n",
		"other/" + cafeNFC + "s.md": "[[index]]\n", // the same name, in another folder
		"other/ref.md":              "[[other/" + cafeNFD + "s]] [[notes/" + cafeNFD + "s]]\n",
	})
	for link, want := range map[string]string{
		cafeNFC:                  "notes/" + cafeNFD + ".md",
		cafeNFD:                  "notes/" + cafeNFD + ".md",
		"caf\u00c9":              "notes/" + cafeNFD + ".md",
		zoeNFD:                   "notes/" + zoeNFC + ".md",
		"notes/" + cafeNFD + "s": "notes/" + cafeNFC + "s.md",
	} {
		if got, err := v.Resolve(link); err != nil || got != want {
			t.Errorf("Resolve(%+q) = %+q, %v; want %+q", link, got, err, want)
		}
	}
	rep, err := v.LintLinks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Broken) != 0 {
		t.Errorf("broken %+v, want none", rep.Broken)
	}
}
