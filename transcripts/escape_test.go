package transcripts

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// hostileDebate is a store holding debate testID on topic, opened and
// with one turn, tr (an attacker's, round 1): the words under test.
func hostileDebate(t *testing.T, topic string, tr debate.TurnRecord) *Store {
	t.Helper()
	s, _ := newStore(t)
	ctx := context.Background()
	sess := testSession(testID)
	sess.Topic = topic
	l, err := s.Create(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, e := range []struct {
		kind    debate.EventKind
		elapsed int64
		data    any
	}{{debate.EventOpen, 0, sess}, {debate.EventTurn, 1, tr}} {
		if _, err := l.Append(ctx, e.kind, e.elapsed, e.data); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// An agent's words on a debate page are text: no live wikilink, tag, HTML,
// or frontmatter fence, whatever the agent wrote in the topic, a position
// or its argument.
func TestDebatePageEscapesAgentText(t *testing.T) {
	t.Parallel()
	s := hostileDebate(t, "Keys [[fake-topic-link]] #topictag", debate.TurnRecord{
		Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Position: "Use [[fake-link]] and #security <b>now</b>", CounterTo: "x",
			Text: "---\ntype: consensus\nstatus: active\n---\nSee [[other-page|here]] and ![[embed.png]] #tag\n<div onclick=x>hi</div>\n==mark== %%hidden%%"},
		Agent: "Critic",
	})
	v := readView(t, s, testID)
	md := string(RenderMarkdownView(v))
	for _, bad := range []string{"[[fake-link]]", "[[fake-topic-link]]", "[[other-page|here]]", "![[embed.png]]", " #security", " #tag", " #topictag", "<b>", "<div", "\n---\n", "==mark==", "%%hidden%%"} {
		if strings.Contains(md, bad) {
			t.Errorf("the page carries %q live:\n%s", bad, md)
		}
	}
	// What a reader sees is the text as written.
	for _, want := range []string{`Use \[\[fake-link\]\] and \#security &lt;b&gt;now&lt;/b&gt;`, `> \---`, `See \[\[other-page\|here\]\]`} {
		if !strings.Contains(md, want) {
			t.Errorf("the page lacks %q:\n%s", want, md)
		}
	}
	// A vault reading the page finds none of the agent's links.
	if links := vault.LinksIn([]byte(md)); len(links) != 0 {
		t.Errorf("links on the page: %v", links)
	}
	page, err := vault.ParsePage("x.md", []byte("---\ntype: debate\n---\n"+md))
	if err != nil || page.Meta["status"] != nil {
		t.Errorf("the argument's fence reached the frontmatter: %v %v", err, page)
	}
}
