package agent

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
)

// The prompt templates of the chat agents (the LLM turn loop, whatever the
// provider): a system prompt per role and layer ("<role>-<layer>.tmpl"),
// the turn prompt ("turn.tmpl"), the reply contract it includes
// ("contract.tmpl") and the re-ask after a reply that could not be used
// ("reask.tmpl"). They are text/template files executed with a
// PromptData.
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

// MaxTemplateBytes bounds one template file.
const MaxTemplateBytes = 64 << 10

// PromptData is what a template is executed with: the turn request, and
// for the re-ask the problem with the previous reply.
type PromptData struct {
	debate.TurnRequest
	// Problem says why the previous reply could not be used (reask.tmpl).
	Problem string
}

// Prompts is a parsed set of templates. It is immutable and safe for
// concurrent use.
type Prompts struct {
	t *template.Template
}

// templateNames are the files a prompt set has, each required.
func templateNames() []string {
	names := []string{"turn.tmpl", "contract.tmpl", "reask.tmpl"}
	for _, l := range debate.Layers {
		for _, r := range []debate.Role{debate.RoleDefender, debate.RoleAttacker} {
			names = append(names, systemTemplate(r, l))
		}
	}
	return names
}

func systemTemplate(r debate.Role, l debate.Layer) string {
	return string(r) + "-" + string(l) + ".tmpl"
}

// promptFuncs are the prompt templates' functions, built when LoadPrompts
// parses them rather than when the program starts.
func promptFuncs() template.FuncMap {
	return template.FuncMap{
		"fence":   fenceText,
		"oneline": func(s string) string { return clip.Line(s, 401) }, // one line, at most 400 characters and "…"
		"join":    strings.Join,
		"orNone": func(s string) string {
			if strings.TrimSpace(s) == "" {
				return "(no position: conceded)"
			}
			return s
		},
	}
}

// LoadPrompts parses the embedded templates and, when dir is not empty,
// replaces each with the file of the same name in dir. A file in dir that
// is not one of the template names, or that does not parse, is an error
// (wrapping ErrBadTemplate): a misspelt override never silently does
// nothing.
func LoadPrompts(dir string) (*Prompts, error) {
	t := template.New("").Funcs(promptFuncs()).Option("missingkey=error")
	known := map[string]bool{}
	for _, name := range templateNames() {
		known[name] = true
		text, err := fs.ReadFile(promptFS, "prompts/"+name)
		if err != nil {
			return nil, fmt.Errorf("%w: embedded %s: %v", ErrBadTemplate, name, err)
		}
		if _, err := t.New(name).Parse(string(text)); err != nil {
			return nil, fmt.Errorf("%w: embedded %s: %v", ErrBadTemplate, name, err)
		}
	}
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("%w: template directory: %v", ErrBadTemplate, err)
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") || e.IsDir() {
				continue
			}
			if !known[name] {
				return nil, fmt.Errorf("%w: %s is not a template name (use %s)", ErrBadTemplate, filepath.Join(dir, name), strings.Join(sortedKeys(known), ", "))
			}
			text, err := readLimited(filepath.Join(dir, name), MaxTemplateBytes)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrBadTemplate, err)
			}
			if _, err := t.New(name).Parse(string(text)); err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrBadTemplate, filepath.Join(dir, name), err)
			}
		}
	}
	p := &Prompts{t: t}
	// Execute every template once on a sample request, so that a template
	// that names a field that does not exist fails now, not mid-debate.
	for _, l := range debate.Layers {
		for _, r := range []debate.Role{debate.RoleDefender, debate.RoleAttacker} {
			sample := &debate.TurnRequest{DebateID: "d", RequestID: "r", Round: 1, Role: r, Layer: l, Topic: "t", Position: "p", MaxRounds: 1,
				Context: []debate.ContextItem{{Kind: "text", Text: "c"}}, Transcript: []debate.TurnRecord{{Turn: debate.Turn{Round: 1, Role: r, Position: "p"}}}}
			if _, _, err := p.Turn(sample); err != nil {
				return nil, err
			}
			if _, err := p.Reask(sample, "x"); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func readLimited(path string, max int) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return b, nil
}

// Turn renders the system and user prompts of req.
func (p *Prompts) Turn(req *debate.TurnRequest) (system, user string, err error) {
	d := &PromptData{TurnRequest: *req}
	if system, err = p.exec(systemTemplate(req.Role, req.Layer), d); err != nil {
		return "", "", err
	}
	if user, err = p.exec("turn.tmpl", d); err != nil {
		return "", "", err
	}
	return system, user, nil
}

// Reask renders the message that asks again after a reply that could not
// be used.
func (p *Prompts) Reask(req *debate.TurnRequest, problem string) (string, error) {
	return p.exec("reask.tmpl", &PromptData{TurnRequest: *req, Problem: problem})
}

func (p *Prompts) exec(name string, d *PromptData) (string, error) {
	if p.t.Lookup(name) == nil {
		return "", fmt.Errorf("%w: no template %s (layer %q, role %q)", ErrBadTemplate, name, d.Layer, d.Role)
	}
	var b bytes.Buffer
	if err := p.t.ExecuteTemplate(&b, name, d); err != nil {
		return "", fmt.Errorf("%w: %v", ErrBadTemplate, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// fenceText wraps text in a Markdown code fence longer than any it holds.
func fenceText(text string) string {
	n := 3
	for run, i := 0, 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "text\n" + strings.TrimRight(text, "\n") + "\n" + f
}
