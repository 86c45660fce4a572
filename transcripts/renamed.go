package transcripts

import (
	"bytes"
	"strings"

	"github.com/parleyhq/parley/vault"
)

// A consensus record renamed in the vault (by hand, or in Obsidian, which
// also rewrites every link to it) still holds what was filed: the seal
// binds its content, not its file name. The audit finds a record that is
// gone from the name its seal records by its debate id (RecordFinder), and
// checks it there; and it undoes, before comparing a page's hash with the
// seal's, the link rewrites such a rename makes in the pages that link the
// record: [[new-name]] back to the [[filed-name]] the seal hashed. Only a
// rename to a record that itself verifies as its debate's is undone, and
// only when the filed name is no longer a file, so retargeting a link to
// another page is still an edit.

// renames maps a renamed record's current link name to the name it was
// filed under.
type renames map[string]string

// linkTargets are the targets of the wikilinks in page's frontmatter
// values and body, each once.
func linkTargets(page *vault.Page) []string {
	var out []string
	seen := map[string]bool{}
	scan := func(s []byte) {
		for {
			i := bytes.Index(s, []byte("[["))
			if i < 0 {
				return
			}
			s = s[i:]
			j := bytes.Index(s, []byte("]]"))
			if j < 0 {
				return
			}
			if l, err := vault.ParseLink(string(s[:j+2])); err == nil && l.Target != "" && !seen[l.Target] {
				seen[l.Target] = true
				out = append(out, l.Target)
			}
			s = s[j+2:]
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			scan([]byte(v))
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(page.Meta)
	scan(page.Body)
	return out
}

// undo returns page with every link to a renamed record written with the
// name it was filed under, as the seal hashed it: [[new]], [[new|…]] and
// [[new#…]] in its frontmatter values and its body.
func (r renames) undo(page *vault.Page) *vault.Page {
	out := &vault.Page{Path: page.Path, Body: page.Body}
	for now, filed := range r {
		for _, end := range []string{"]]", "|", "#"} {
			out.Body = bytes.ReplaceAll(out.Body, []byte("[["+now+end), []byte("[["+filed+end))
		}
	}
	var fix func(v any) any
	fix = func(v any) any {
		switch v := v.(type) {
		case string:
			for now, filed := range r {
				for _, end := range []string{"]]", "|", "#"} {
					v = strings.ReplaceAll(v, "[["+now+end, "[["+filed+end)
				}
			}
			return v
		case []any:
			c := make([]any, len(v))
			for i, e := range v {
				c[i] = fix(e)
			}
			return c
		case map[string]any:
			c := make(map[string]any, len(v))
			for k, e := range v {
				c[k] = fix(e)
			}
			return c
		}
		return v
	}
	if page.Meta != nil {
		out.Meta = fix(page.Meta).(map[string]any)
	}
	return out
}

// renamesIn finds, among the links of page, those that lead to a record
// renamed since it was filed: a record of another debate that verifies
// against that debate's seal under a new name, whose filed name is no
// longer a file. own is this debate's record's rename, if any.
func (a *auditor) renamesIn(page *vault.Page, own renames) renames {
	r := renames{}
	for k, v := range own {
		r[k] = v
	}
	if a.nested || a.w.Vault == nil {
		return r
	}
	for _, target := range linkTargets(page) {
		if _, ok := r[target]; ok {
			continue
		}
		p, err := a.w.Vault.Resolve(target)
		if err != nil || p == "" || RecordLink(p) != target {
			continue
		}
		linked, err := a.w.Vault.ReadPage(p)
		if err != nil {
			continue
		}
		id, _ := linked.Meta["debate_id"].(string)
		if id == "" || id == a.id {
			continue
		}
		t, err := a.s.audit(a.ctx, id, a.w, true)
		if err != nil || t.Verdict == nil {
			continue
		}
		for _, fc := range t.Audit {
			if fc.File == p && fc.Status == FileIntact && fc.FiledAs != "" && RecordLink(fc.FiledAs) != target {
				r[target] = RecordLink(fc.FiledAs)
			}
		}
	}
	return r
}
