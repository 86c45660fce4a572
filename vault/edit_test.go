package vault

import (
	"errors"
	"strings"
	"testing"
)

// A page as an Obsidian user leaves it: nested aliases, anchors and
// aliases, a block scalar, comments, odd quoting, dates, numbers, a
// property with spaces in its name, and CRLF-free LF lines.
const userPage = `---
type: consensus
# the user's own note about this record
aliases:
  - Thumbs
  - "Image: thumbnails"
cssclasses: [wide, "no-title"]
status: active
rating: 4.5
reviewed: 2026-11-02
owner: &me
  name: Ana
  teams: [web, perf]
backup_owner: *me
notes: |
  keep this
    exactly, indentation too
  ---
"odd key": 'single ''quoted'''
superseded_by:
empty:
nothing: null
yes_value: yes
big: 0x1F
updated: "2026-11-30T09:00:00.000Z"
tags: [consensus, spec]
---
# Body

stays byte for byte
`

func TestEditFrontmatterKeepsEveryOtherByte(t *testing.T) {
	t.Parallel()
	out, err := EditFrontmatter([]byte(userPage), Frontmatter{
		{Key: "status", Value: "superseded"},
		{Key: "superseded_by", Value: "[[spec-thumbnail-image-format-2]]"},
		{Key: "updated", Value: "2026-12-01T10:00:00.000Z"},
		{Key: "seal", Value: "abc"}, // a key the page lacks
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"status: active\n", "status: \"superseded\"\n",
		"superseded_by:\n", "superseded_by: \"[[spec-thumbnail-image-format-2]]\"\n",
		"updated: \"2026-11-30T09:00:00.000Z\"\n", "updated: \"2026-12-01T10:00:00.000Z\"\n",
		"tags: [consensus, spec]\n---\n", "tags: [consensus, spec]\nseal: \"abc\"\n---\n",
	).Replace(userPage)
	if string(out) != want {
		t.Fatalf("edit changed more than the keys set:\n%s\nwant:\n%s", out, want)
	}
	// It still parses, to the same values for the user's keys.
	p, err := ParsePage("x.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta["status"] != "superseded" || p.Meta["rating"] != 4.5 || p.Meta["backup_owner"] == nil {
		t.Errorf("meta after edit: %v", p.Meta)
	}
	// Idempotent.
	again, err := EditFrontmatter(out, Frontmatter{{Key: "status", Value: "superseded"}})
	if err != nil || string(again) != string(out) {
		t.Errorf("second edit changed the page: %v\n%s", err, again)
	}
}

func TestEditFrontmatterRefuses(t *testing.T) {
	t.Parallel()
	for name, page := range map[string]string{
		"no frontmatter": "# just a note\n",
		"not closed":     "---\nstatus: active\n",
		"not a mapping":  "---\n- a\n- b\n---\n",
		"broken yaml":    "---\nstatus: [active\n---\n",
		"flow mapping":   "---\n{status: active}\n---\n",
		"complex key":    "---\n? [a, b]\n: c\n---\n",
	} {
		if _, err := EditFrontmatter([]byte(page), Frontmatter{{Key: "status", Value: "x"}}); err == nil {
			t.Errorf("%s: edited", name)
		} else if !errors.Is(err, ErrNoFrontmatter) && !errors.Is(err, ErrFrontmatter) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A value that would need an invalid key is refused, the page kept.
	if _, err := EditFrontmatter([]byte("---\na: 1\n---\n"), Frontmatter{{Key: "bad key", Value: "x"}}); !errors.Is(err, ErrFrontmatter) {
		t.Errorf("bad key: %v", err)
	}
}

func TestEditFrontmatterCRLF(t *testing.T) {
	t.Parallel()
	page := "---\r\nstatus: active\r\nmine: \"keep\"\r\n---\r\nbody\r\n"
	out, err := EditFrontmatter([]byte(page), Frontmatter{{Key: "status", Value: "superseded"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "---\r\nstatus: \"superseded\"\r\nmine: \"keep\"\r\n---\r\nbody\r\n"; string(out) != want {
		t.Errorf("%q", out)
	}
}

// TestEditFrontmatterEditsWhatTheReaderReads: every page whose frontmatter
// SplitFrontmatter finds, the editor edits too, keeping the bytes around
// the block as they were: a byte-order mark (Notepad), blank lines before
// the block, "---yaml", spaces after a fence, CRLF.
func TestEditFrontmatterEditsWhatTheReaderReads(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ page, want string }{
		"byte-order mark": {"\ufeff---\nstatus: active\nmine: 1\n---\nbody\n", "\ufeff---\nstatus: \"superseded\"\nmine: 1\n---\nbody\n"},
		"mark and CRLF":   {"\ufeff---\r\nstatus: active\r\n---\r\nbody\r\n", "\ufeff---\r\nstatus: \"superseded\"\r\n---\r\nbody\r\n"},
		"blank lines":     {"\n \n---\nstatus: active\n---\n", "\n \n---\nstatus: \"superseded\"\n---\n"},
		"---yaml":         {"---yaml\nstatus: active\n---\n", "---yaml\nstatus: \"superseded\"\n---\n"},
		"spaces at fence": {"--- \nstatus: active\n---\t\nbody\n", "--- \nstatus: \"superseded\"\n---\t\nbody\n"},
		"no final EOL":    {"---\nstatus: active\n---", "---\nstatus: \"superseded\"\n---"},
	} {
		if _, _, ok := SplitFrontmatter([]byte(c.page)); !ok {
			t.Errorf("%s: the reader finds no frontmatter", name)
		}
		out, err := EditFrontmatter([]byte(c.page), Frontmatter{{Key: "status", Value: "superseded"}})
		if err != nil || string(out) != c.want {
			t.Errorf("%s: %q, %v\nwant %q", name, out, err, c.want)
		}
	}
	// Text before the block is not frontmatter, for either of them.
	page := "note\n---\nstatus: active\n---\n"
	if _, _, ok := SplitFrontmatter([]byte(page)); ok {
		t.Error("the reader found frontmatter after text")
	}
	if _, err := EditFrontmatter([]byte(page), Frontmatter{{Key: "status", Value: "x"}}); !errors.Is(err, ErrNoFrontmatter) {
		t.Errorf("the editor: %v", err)
	}
}

// TestEditFrontmatterKeepsALineComment: a comment after a one-line value
// a person wrote stays after the value parley writes in its place.
func TestEditFrontmatterKeepsALineComment(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ page, want string }{
		"after a quoted value": {"---\nstatus: 'active' # mine\nx: 1\n---\n", "---\nstatus: \"superseded\" # mine\nx: 1\n---\n"},
		"after a plain value":  {"---\nstatus: active   #keep me\n---\n", "---\nstatus: \"superseded\" #keep me\n---\n"},
		"after an empty value": {"---\nsuperseded_by: # later\n---\n", "---\nsuperseded_by: \"[[b]]\" # later\n---\n"},
		"a hash inside quotes": {"---\nstatus: \"a # b\"\n---\n", "---\nstatus: \"superseded\"\n---\n"},
		"CRLF":                 {"---\r\nstatus: active # mine\r\n---\r\n", "---\r\nstatus: \"superseded\" # mine\r\n---\r\n"},
	} {
		set := Frontmatter{{Key: "status", Value: "superseded"}}
		if strings.Contains(c.page, "superseded_by") {
			set = Frontmatter{{Key: "superseded_by", Value: "[[b]]"}}
		}
		out, err := EditFrontmatter([]byte(c.page), set)
		if err != nil || string(out) != c.want {
			t.Errorf("%s: %q, %v\nwant %q", name, out, err, c.want)
		}
	}
}
