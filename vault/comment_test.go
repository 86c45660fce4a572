package vault

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// Obsidian shows no %%comment%% in any view, so a link in one links
// nothing: lint must not call it broken, nor count it against an orphan.
func TestLinksInSkipsObsidianComments(t *testing.T) {
	t.Parallel()
	checkLinksIn(t, []linksCase{
		{"inline", "See [[a]] %% later [[gone]] %% and [[b]].\n", []string{"a", "b"}},
		{"inline across lines", "See %% later\n[[gone]] %% [[a]]\n", []string{"a"}},
		{"whole line", "%% [[gone]] %%\n\n[[a]]\n", []string{"a"}},
		{"block", "[[a]]\n\n%%\nA block comment with [[gone]]\n\nand a blank line [[gone2]]\n%%\n\n[[b]]\n", []string{"a", "b"}},
		{"block opened with text", "%% TODO:\n[[gone]]\n%%\n[[a]]\n", []string{"a"}},
		{"block interrupts a paragraph", "[[a]]\n%%\n[[gone]]\n%%\n", []string{"a"}},
		{"block never closed", "[[a]]\n\n%%\n[[gone]]\n", []string{"a"}},
		{"text after a block's end", "%%\n[[gone]]\n%% [[a]]\n[[b]]\n", []string{"a", "b"}},
		{"a block's end alone", "%%\n[[gone]]\n%%\n[[a]]\n", []string{"a"}},
		{"a block in a quote", "> %%\n> [[gone]]\n> %% [[a]]\n", []string{"a"}},
		{"inline never closed", "100%% sure [[a]]\n", []string{"a"}},
		{"escaped", `\%\% [[a]] \%\%` + "\n", []string{"a"}},
		{"in code", "`%%` [[a]] `%%`\n\n```\n%%\n```\n[[b]]\n", []string{"a", "b"}},
		{"in a table", "| x | y |\n|---|---|\n| %%[[gone]]%% | [[a]] |\n", []string{"a"}},
	})
}

// linksCase is Markdown and the targets LinksIn should find in it.
type linksCase struct {
	name, md string
	want     []string
}

// checkLinksIn runs LinksIn on each case's Markdown, one subtest each.
func checkLinksIn(t *testing.T, cases []linksCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range LinksIn([]byte(tc.md)) {
				got = append(got, l.Target)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("LinksIn(%q) = %q, want %q", tc.md, got, tc.want)
			}
		})
	}
}

func TestRenderLeavesObsidianCommentsOut(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Render(&b, []byte("shown %%hidden%% shown too\n\n%%\nhidden block\n%%\n\nafter\n"), nil); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Contains(html, "hidden") || strings.Contains(html, "%%") || !strings.Contains(html, "shown") || !strings.Contains(html, "shown too") || !strings.Contains(html, "after") {
		t.Errorf("Render = %q", html)
	}
}
