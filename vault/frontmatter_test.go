package vault

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	goyaml "github.com/goccy/go-yaml"
	yamlv3 "gopkg.in/yaml.v3"

	"github.com/parleyhq/parley/internal/clip"
)

// hostile are strings that break naive YAML writers.
var hostile = []string{
	"",
	"plain",
	`say "hi"`,
	"key: value",
	"a: b: c",
	"line one\nline two",
	"---",
	"...",
	"x\n---\ny: z",
	"no", "yes", "off", "~", "null", "1.0", "0x1F", "1e3", ".inf",
	"#not a comment", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`", "| pipe", "> fold",
	"- dash", "[flow]", "{map: 1}", "'single'", `back\slash`, "tab\there",
	"trailing space ", " leading space",
	"NUL\x00byte", "bell\a", "esc\x1b[31m", "del\x7f", "c1\u0085nel", "ls\u2028ps\u2029",
	"\ufeffbom", "nonchar\uffff",
	"unicode: café, naïve, 東京, Ελλάδα, русский, 🦜",
	"invalid \xff\xfe utf-8",
	"[[debates/20261130-spec-x-abcdef]]",
	strings.Repeat("long ", 2000),
}

// TestQuoteReadsBackWithThreeParsers checks that every hostile string written
// by Marshal reads back unchanged through DecodeFrontmatter, and with two
// parsers directly (goccy/go-yaml, yaml.v3).
func TestQuoteReadsBackWithThreeParsers(t *testing.T) {
	t.Parallel()
	for _, s := range hostile {
		want := strings.ToValidUTF8(s, "\uFFFD")
		fm := Frontmatter{{"type", "test"}, {"topic", s}, {"list", []string{s, "b"}}, {"date", Date("2026-11-30")}, {"none", nil}, {"n", 3}}
		head, err := fm.Marshal()
		if err != nil {
			t.Fatalf("%q: %v", clip.Runes(s, 81), err)
		}
		page := append(head, "# body\n"...)

		var v struct {
			Type  string   `yaml:"type"`
			Topic string   `yaml:"topic"`
			List  []string `yaml:"list"`
			Date  string   `yaml:"date"`
			None  *string  `yaml:"none"`
			N     int      `yaml:"n"`
		}
		body, err := DecodeFrontmatter(page, &v)
		if err != nil {
			t.Fatalf("%q: frontmatter: %v\n%s", clip.Runes(s, 81), err, head)
		}
		if string(body) != "# body\n" {
			t.Errorf("%q: body %q", clip.Runes(s, 81), body)
		}
		if v.Topic != want || len(v.List) != 2 || v.List[0] != want || v.Date != "2026-11-30" || v.None != nil || v.N != 3 {
			t.Errorf("%q: DecodeFrontmatter read back %+v", clip.Runes(s, 81), v)
		}

		yamlText := head[len("---\n") : len(head)-len("---\n")]
		var g map[string]any
		if err := goyaml.Unmarshal(yamlText, &g); err != nil {
			t.Fatalf("%q: goccy/go-yaml: %v\n%s", clip.Runes(s, 81), err, yamlText)
		}
		if g["topic"] != want {
			t.Errorf("%q: goccy/go-yaml read %q", clip.Runes(s, 81), g["topic"])
		}
		var v3 map[string]any
		if err := yamlv3.Unmarshal(yamlText, &v3); err != nil {
			t.Fatalf("%q: yaml.v3: %v", clip.Runes(s, 81), err)
		}
		if v3["topic"] != want {
			t.Errorf("%q: yaml.v3 read %q", clip.Runes(s, 81), v3["topic"])
		}
		// Every value stays on its key's line: nothing can end the block.
		if n := strings.Count(string(yamlText), "\n"); n != len(fm) {
			t.Errorf("%q: %d lines for %d keys", clip.Runes(s, 81), n, len(fm))
		}
	}
}

func TestMarshalRefuses(t *testing.T) {
	t.Parallel()
	for name, fm := range map[string]Frontmatter{
		"bad key":    {{"a b", "x"}},
		"colon key":  {{"a:b", "x"}},
		"empty key":  {{"", "x"}},
		"twice":      {{"a", "x"}, {"a", "y"}},
		"type":       {{"a", 1.5}},
		"too large":  {{"a", strings.Repeat("x", MaxFrontmatterBytes)}},
		"map values": {{"a", map[string]string{}}},
	} {
		if _, err := fm.Marshal(); !errors.Is(err, ErrFrontmatter) && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: err %v, want ErrFrontmatter or ErrTooLarge", name, err)
		}
	}
}

func TestDecodeFrontmatterErrors(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		page string
		want error
	}{
		"none":          {"# just a page\n", ErrNoFrontmatter},
		"unclosed":      {"---\ntype: x\n# no end\n", ErrNoFrontmatter},
		"bad yaml":      {"---\ntype: [unclosed\n---\n", ErrFrontmatter},
		"not a mapping": {"---\n- a\n- b\n---\n", ErrFrontmatter},
		"tab indent":    {"---\na:\n\t- b\n---\n", ErrFrontmatter},
		"toml refused":  {"+++\ntype = 'x'\n+++\n", ErrNoFrontmatter},
		"json refused":  {"{\"type\": \"x\"}\n", ErrNoFrontmatter},
		"key twice":     {"---\ntype: a\ntype: b\n---\n", ErrFrontmatter},
		"anchor bomb":   {"---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n---\n", ErrFrontmatter},
		"too large fm":  {"---\na: \"" + strings.Repeat("x", MaxFrontmatterBytes) + "\"\n---\n", ErrTooLarge},
		"too large":     {"---\na: b\n---\n" + strings.Repeat("x", MaxPageBytes), ErrTooLarge},
	} {
		var m map[string]any
		if _, err := DecodeFrontmatter([]byte(tc.page), &m); !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", name, err, tc.want)
		}
	}
}

func TestParsePage(t *testing.T) {
	t.Parallel()
	p, err := ParsePage("wiki/a/Page One.md", []byte("---\ntype: concept\ntags: [\"#x\", yy]\nrelated:\n  - \"[[b]]\"\nnested: {k: \"[[c#h]]\"}\n---\nSee [[d|dee]] and `[[not-a-link]]`.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "Page One" || p.Type() != "concept" {
		t.Errorf("name %q type %q", p.Name(), p.Type())
	}
	if got := strings.Join(p.Tags(), ","); got != "x,yy" {
		t.Errorf("tags %q", got)
	}
	var got []string
	for _, l := range p.Links() {
		got = append(got, l.String())
	}
	if strings.Join(got, " ") != "[[c#h]] [[b]] [[d|dee]]" {
		t.Errorf("links %v", got)
	}
	plain, err := ParsePage("x.md", []byte("no frontmatter\n"))
	if err != nil || plain.Meta != nil || string(plain.Body) != "no frontmatter\n" {
		t.Errorf("plain page: %+v %v", plain, err)
	}
}

// TestSplitFrontmatter: where a page's frontmatter starts and ends, for
// the ways editors and people write it.
func TestSplitFrontmatter(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		page, yaml, body string
		ok               bool
	}{
		"plain":                {"---\ntype: x\n---\n# Body\n", "type: x\n", "# Body\n", true},
		"crlf":                 {"---\r\ntype: x\r\ntags: [a]\r\n---\r\n# Body\r\n", "type: x\r\ntags: [a]\r\n", "# Body\r\n", true},
		"bom":                  {"\ufeff---\ntype: x\n---\nbody", "type: x\n", "body", true},
		"bom and crlf":         {"\ufeff---\r\na: 1\r\n---\r\n", "a: 1\r\n", "", true},
		"no closing fence":     {"---\ntype: x\n# Body\n", "", "", false},
		"only an opening":      {"---", "", "", false},
		"empty frontmatter":    {"---\n---\nbody\n", "", "body\n", true},
		"empty page":           {"", "", "", false},
		"closing at the end":   {"---\na: b\n---", "a: b\n", "", true},
		"fence with spaces":    {"---  \na: b\n--- \t\nbody", "a: b\n", "body", true},
		"blank lines first":    {"\n  \n---\na: b\n---\nbody", "a: b\n", "body", true},
		"---yaml":              {"---yaml\na: b\n---\nbody", "a: b\n", "body", true},
		"text first":           {"# Title\n---\na: b\n---\n", "", "", false},
		"four dashes":          {"----\na: b\n----\n", "", "", false},
		"dashes in a scalar":   {"---\nnote: |\n  first\n  ---\n  after\n---\nbody", "note: |\n  first\n  ---\n  after\n", "body", true},
		"dashes in a sequence": {"---\nlist:\n  - ---x\n  - \"---\"\n---\n", "list:\n  - ---x\n  - \"---\"\n", "", true},
		"later rule in body":   {"---\na: b\n---\ntext\n\n---\nmore", "a: b\n", "text\n\n---\nmore", true},
		"toml":                 {"+++\na = 1\n+++\n", "", "", false},
	} {
		yaml, body, ok := SplitFrontmatter([]byte(tc.page))
		if ok != tc.ok || string(yaml) != tc.yaml || string(body) != tc.body {
			t.Errorf("%s: got %q %q %v, want %q %q %v", name, yaml, body, ok, tc.yaml, tc.body, tc.ok)
		}
	}
}

// TestDecodeFrontmatterReadsWhatEditorsWrite decodes pages in the shapes
// SplitFrontmatter accepts into the map ParsePage uses.
func TestDecodeFrontmatterReadsWhatEditorsWrite(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		page string
		want map[string]any
		body string
	}{
		"crlf":        {"---\r\ntitle: Rollout plan\r\nsteps: 3\r\n---\r\nbody", map[string]any{"title": "Rollout plan", "steps": 3}, "body"},
		"bom":         {"\ufeff---\ntitle: Ünïcode\n---\n", map[string]any{"title": "Ünïcode"}, ""},
		"block":       {"---\nsummary: |\n  line one\n  ---\n  line three\nowner: ops\n---\n# B\n", map[string]any{"summary": "line one\n---\nline three\n", "owner": "ops"}, "# B\n"},
		"empty":       {"---\n---\n# B\n", map[string]any{}, "# B\n"},
		"comments":    {"---\n# a comment\n---\n", map[string]any{}, ""},
		"yes is text": {"---\nship: yes\nready: true\n---\n", map[string]any{"ship": "yes", "ready": true}, ""},
	} {
		p, err := ParsePage("x.md", []byte(tc.page))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fmt.Sprint(p.Meta) != fmt.Sprint(tc.want) || string(p.Body) != tc.body {
			t.Errorf("%s: meta %v body %q, want %v %q", name, p.Meta, p.Body, tc.want, tc.body)
		}
	}
}

// A frontmatter error is one line: yaml.v3 lists its problems on lines of
// their own, which a one-line report would show mangled.
func TestFrontmatterErrorIsOneLine(t *testing.T) {
	t.Parallel()
	for name, page := range map[string]string{
		"a key twice":    "---\nverdict: a\nverdict: b\n---\nbody\n",
		"two keys twice": "---\na: 1\nb: 2\na: 3\nb: 4\n---\n",
		"a bad indent":   "---\na: 1\n  b: 2\n---\n",
	} {
		_, err := ParsePage("x.md", []byte(page))
		if !errors.Is(err, ErrFrontmatter) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q", name, err)
		}
		if _, err := EditFrontmatter([]byte(page), Frontmatter{{Key: "status", Value: "superseded"}}); err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: edit: %q", name, err)
		}
	}
}
