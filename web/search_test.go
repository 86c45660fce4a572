package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// The search of the debates and the index's listing answer from what
// was read before (transcripts.Searcher), exactly as reading every debate
// afresh does (searchAfresh, the search as it was; Store.Find): over
// random vaults, for random queries and filters, and after each change made to the vault while the server runs
// (a debate added, removed, tampered with, its topic or verdict edited, a
// coordinator letting go of a running debate).
func TestSearchAnswersAsReadingAfresh(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run("seed "+string(rune('0'+seed)), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, 99))
			vocab := append(vocabulary(rng, 30), "Straße", "İstanbul", "ǅemal", "日本語", "ﬁle", "Ωmega", "café", "cafe\u0301")
			f := newFixtureAt(t, benchDir(t))
			n := 15 + rng.IntN(15)
			if seed == 1 {
				n = 55 // more than MaxSearchHits match a common word
			}
			var ids []string
			for range n {
				ids = append(ids, f.quickDebate(rng, vocab, 1+rng.IntN(3), ending(rng.IntN(3))))
			}
			queries := []string{"e", "a", ids[0][:8], "round", "STRASSE", "straße", "i̇stanbul", "istanbul", "日本", "fi", "café", "cafe"}
			for range 10 {
				w := strings.Fields(wordsOf(rng, vocab, 1+rng.IntN(3)))
				for i := range w {
					if rng.IntN(3) == 0 && len(w[i]) > 2 {
						w[i] = w[i][:len(w[i])/2] // a part of a word
					}
					if rng.IntN(4) == 0 {
						w[i] = strings.ToUpper(w[i])
					}
				}
				queries = append(queries, strings.Join(w, " "))
			}
			same := func(when string) {
				t.Helper()
				for _, q := range queries {
					want, wantMore, wantErr := searchAfresh(f.debates, q)
					got, gotMore, gotErr := f.srv.search.Search(context.Background(), q)
					if !reflect.DeepEqual(got, want) || gotMore != wantMore || (gotErr == nil) != (wantErr == nil) {
						t.Fatalf("%s, %q: the searcher found %d hits (more %v, %v), reading afresh %d (more %v, %v)\n%+v\n%+v",
							when, q, len(got), gotMore, gotErr, len(want), wantMore, wantErr, got, want)
					}
				}
				// The index's listing, from the same Searcher.
				for _, flt := range []transcripts.Filter{{}, {Text: queries[rng.IntN(len(queries))]}, {State: transcripts.StateInterrupted},
					{State: transcripts.StateRunning}, {Verdict: debate.BudgetExhausted}, {Layer: debate.LayerPlan, Text: "e"}} {
					want, wantErr := f.debates.Find(flt)
					got, gotErr := f.srv.search.Find(context.Background(), flt)
					if (len(got)+len(want) > 0 && !reflect.DeepEqual(got, want)) || (gotErr == nil) != (wantErr == nil) {
						t.Fatalf("%s, %+v: the searcher lists %d debates (%v), reading afresh %d (%v)\n%+v\n%+v", when, flt, len(got), gotErr, len(want), wantErr, got, want)
					}
				}
			}
			same("at first")
			same("asked again")
			dir := func(id string) string { return filepath.Join(f.root, "debates", id) }
			edits := []struct {
				name string
				do   func()
			}{
				{"a debate added", func() { ids = append(ids, f.quickDebate(rng, vocab, 2, endSealed)) }},
				{"a transcript tampered with, same size", func() {
					p := filepath.Join(dir(ids[1]), transcripts.TranscriptFile)
					data, _ := os.ReadFile(p)
					i := strings.LastIndex(string(data), `"text":"`) + 8
					data[i] ^= 0x01
					os.WriteFile(p, data, 0o600)
				}},
				{"a transcript tampered with, its time set back", func() {
					p := filepath.Join(dir(ids[2]), transcripts.TranscriptFile)
					fi, _ := os.Stat(p)
					data, _ := os.ReadFile(p)
					i := strings.Index(string(data), `"position":"`) + 12
					data[i] = 'Z'
					os.WriteFile(p, data, 0o600)
					os.Chtimes(p, fi.ModTime(), fi.ModTime())
				}},
				{"a topic edited", func() {
					p := filepath.Join(dir(ids[3]), transcripts.SessionFile)
					data, _ := os.ReadFile(p)
					sess, _ := f.debates.Session(ids[3])
					os.WriteFile(p, []byte(strings.Replace(string(data), sess.Topic, "Straße "+vocab[0], 1)), 0o600)
				}},
				{"a verdict.json removed", func() { os.Remove(filepath.Join(dir(ids[4]), transcripts.VerdictFile)) }},
				{"a verdict.json that does not decode", func() {
					os.WriteFile(filepath.Join(dir(ids[5]), transcripts.VerdictFile), []byte("{"), 0o600)
				}},
				{"a session.json removed", func() { os.Remove(filepath.Join(dir(ids[6]), transcripts.SessionFile)) }},
				{"a line appended", func() {
					p := filepath.Join(dir(ids[7]), transcripts.TranscriptFile)
					fh, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
					fh.WriteString(`{"seq":99,"kind":"turn","data":{"text":"` + vocab[1] + `"}}` + "\n")
					fh.Close()
				}},
				{"a debate removed", func() { os.RemoveAll(dir(ids[8])) }},
			}
			for _, e := range edits {
				e.do()
				same("after " + e.name)
			}
			// A debate that runs: its coordinator holds its lock, then lets
			// go without writing anything (it died).
			log := f.runningDebate(vocab[2])
			same("with a debate running")
			log.Close()
			same("after its coordinator let go")
		})
	}
}

// runningDebate creates a debate about topic, opens it and records its
// first request, and leaves it running: the caller closes the log.
func (f *fixture) runningDebate(topic string) *transcripts.Log {
	f.t.Helper()
	ctx := context.Background()
	id := debate.NewID(time.Now(), debate.LayerPlan, topic)
	sess := &debate.DebateSession{
		ID: id, Topic: topic, Layer: debate.LayerPlan, Position: topic, Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
		Budget:       debate.DefaultBudget(debate.LayerPlan),
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Workspace:    f.workspace,
	}
	log, err := f.debates.Create(ctx, sess)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := log.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		f.t.Fatal(err)
	}
	return log
}

// A query that is not UTF-8 is searched and shown as text with its bad
// bytes replaced: every page is valid UTF-8, as its charset says.
func TestQueryOfInvalidUTF8GivesAUTF8Page(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, target := range []string{"/search?q=%ff%fe", "/?q=%ff+keys", "/consensus?q=%c3"} {
		resp, body := get(t, f.srv, target)
		if resp.StatusCode != http.StatusOK || !utf8.ValidString(body) {
			t.Errorf("%s: %d, valid UTF-8 %v", target, resp.StatusCode, utf8.ValidString(body))
		}
	}
}
