package vault

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzParsePage feeds arbitrary bytes to the frontmatter decoder: it must
// never panic, and a page it accepts must render.
func FuzzParsePage(f *testing.F) {
	for _, s := range []string{
		"---\ntype: consensus\ntopic: \"x\"\ntags: [a, b]\n---\n# X\n",
		"---\n---\n", "---\n", "---yaml\na: 1\n---\n", "\n\n---\na: b\n---\nbody",
		"---\na: &x [*x]\n---\n", "---\n!!binary x\n---\n", "---\n? [a]\n: b\n---\n",
		"---\na: b\n  c\n---\n", "+++\na=1\n+++\n", "{\"a\":1}\n\n", "---\n" + strings.Repeat("[", 200) + "\n---\n",
		"---\na: \"\\u0000\"\n---\n[[x|y]] [[a#b]] | t |\n|---|\n| [[c\\|d]] |\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePage("fuzz.md", data)
		if err != nil {
			return
		}
		_ = p.Type()
		_ = p.Tags()
		_ = p.Links()
		var buf bytes.Buffer
		if err := Render(&buf, p.Body, func(l Link) (string, bool) { return "/" + l.Target, true }); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
}

// FuzzParseLink checks that a parsed link never panics and that writing it
// back parses to the same link.
func FuzzParseLink(f *testing.F) {
	for _, s := range []string{"[[a]]", "a#b|c", "[[debates/x]]", `a\|b`, "[[#h]]", "|", "#", "[[a|b|c]]", " a # b | c ", "a#^blk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLink(s)
		if err != nil {
			return
		}
		if l.Target == "" && l.Heading == "" {
			t.Fatalf("accepted an empty link %q", s)
		}
		if strings.ContainsAny(l.Target+l.Heading+l.Alias, "[]\n") {
			t.Fatalf("%q: brackets or newline in %+v", s, l)
		}
		again, err := ParseLink(l.String())
		if err != nil {
			t.Fatalf("%q -> %q: %v", s, l.String(), err)
		}
		// '#' and '|' in the heading/alias may shift on the way back; the
		// target before them never does.
		if !strings.ContainsAny(l.Target, "#|") && !strings.HasSuffix(l.Target, `\`) && again.Target != l.Target {
			t.Fatalf("%q: target %q became %q", s, l.Target, again.Target)
		}
	})
}

// FuzzQuote checks that every string Quote writes reads back unchanged.
func FuzzQuote(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v struct {
			A string `yaml:"a"`
		}
		if err := yaml.Unmarshal([]byte("a: "+Quote(s)+"\n"), &v); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); v.A != want {
			t.Fatalf("%q read back as %q", want, v.A)
		}
	})
}

// For any frontmatter block, the fast path either declines or gives what
// yaml.v3 gives.
func FuzzFastFrontmatterAgreesWithYAML(f *testing.F) {
	for _, s := range []string{
		"type: \"consensus\"\ndate: 2026-11-30\nparticipants: [\"A\", \"B\"]\nfinal_position:\nn: 10\n",
		"tags:\n  - reading\n  - \"to do\"\n  - 2026\n",
		"nested:\n  when: 2026-05-14\n  list: [2026-01-02, \"x\"]\n  ok: true\n",
		"title: My notes\nrating: -5\nmood: off\n",
		"a: \"\\u00e9\\t\\\"q\\\"\"\n",
		"a: [b, \"c, d\", 7, null]\n",
		"a: 012\n", "a: &x v\nb: *x\n", "a: |\n  x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, block []byte) {
		if len(block) > MaxFrontmatterBytes {
			return
		}
		agreeOrDecline(t, block)
	})
}

// FuzzEditFrontmatter: an edit either is refused or gives a page whose
// frontmatter the reader finds, with the key set to its new value, every
// other key decoding as before, and the body unchanged.
func FuzzEditFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nstatus: active\nmine: 1\n---\nbody\n", "\ufeff---\r\nstatus: 'active' # c\r\n---\r\n",
		"\n---yaml \na: &x 1\nb: *x\nstatus: x\n---\t\n", "---\nstatus: |\n  a\n  b\nx: [1, 2]\n---\n",
		"---\n# only a comment\n---\n", "---\nstatus: \"a # b\" # c\n---\n", "---\nstatus:\n  - a\n# tail\nx: y\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		out, err := EditFrontmatter(page, Frontmatter{{Key: "status", Value: "superseded"}})
		if err != nil {
			return
		}
		beforeYAML, beforeBody, ok := SplitFrontmatter(page)
		if !ok {
			t.Fatalf("edited a page the reader finds no frontmatter in: %q", page)
		}
		afterYAML, afterBody, ok := SplitFrontmatter(out)
		if !ok {
			t.Fatalf("the edit lost the frontmatter: %q → %q", page, out)
		}
		if !bytes.Equal(beforeBody, afterBody) {
			t.Fatalf("the body changed: %q → %q", beforeBody, afterBody)
		}
		var before, after map[string]any
		if yaml.Unmarshal(beforeYAML, &before) != nil {
			return // the editor's parse accepted what this one does not: nothing to compare
		}
		if err := yaml.Unmarshal(afterYAML, &after); err != nil {
			t.Fatalf("the edit does not parse: %v\n%q", err, out)
		}
		if after["status"] != "superseded" {
			t.Fatalf("status is %v in %q", after["status"], out)
		}
		for k, v := range before {
			if k == "status" {
				continue
			}
			if !reflect.DeepEqual(after[k], v) {
				t.Fatalf("key %q changed: %v → %v in %q", k, v, after[k], out)
			}
		}
	})
}
