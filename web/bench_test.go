package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/transcripts"
)

// longDebate records a debate of rounds rounds between one attacker and
// one defender who never agree, the way the coordinator records one
// (open, then a request and a turn per speaker, then the verdict the end
// rules give), through the real transcript journal, then files and seals
// it: 2×rounds turns with arguments and checked evidence, a chain that
// verifies, a vault page that matches. (A debate this long cannot run over
// the messenger: each turn_request carries the whole transcript, which
// passes inbox.MaxMessageBytes long before 1000 turns.)
func (f *fixture) longDebate(rounds int) string {
	f.t.Helper()
	ctx := context.Background()
	sess, log, st := f.openDebate("A long debate", "defender position 0", rounds)
	id := sess.ID
	defer log.Close()
	must := func(_ debate.Event, err error) {
		if err != nil {
			f.t.Fatal(err)
		}
	}
	arg := strings.Repeat("An argument of some length, as a model would write it. ", 6)
	elapsed := int64(0)
	for {
		elapsed += 3
		round, sp, reqID, ok := f.request(log, st, rounds, elapsed)
		if !ok {
			break
		}
		pos := fmt.Sprintf("%s position %d", sp.Role, round)
		t := debate.TurnRecord{
			Turn: debate.Turn{DebateID: id, Round: round, Role: sp.Role, Position: pos, ConfidenceChange: -1, Tokens: 120, Text: arg,
				EvidenceRefs: []string{"notes.md:2", "https://example.org/spec"}},
			Agent: sp.Name, RequestID: reqID, MessageID: debate.RequestMessageID(reqID+":reply", ""), PositionHash: debate.PositionHash(pos),
			Evidence: []debate.EvidenceCheck{{Ref: "notes.md:2", Kind: "line", Status: debate.EvidenceOK}, {Ref: "https://example.org/spec", Kind: "url", Status: debate.EvidenceUnchecked}},
		}
		if sp.Role == debate.RoleAttacker {
			t.CounterTo = fmt.Sprintf("defender position %d", round-1)
		}
		f.turn(log, st, elapsed, t)
		if o, done := st.Judge(elapsed); done {
			if o.Verdict != debate.BudgetExhausted || round != rounds {
				f.t.Fatalf("round %d: %s", round, o.Verdict)
			}
			o.Closed = inbox.Now()
			must(log.Append(ctx, debate.EventVerdict, elapsed, o))
			break
		}
	}
	st, err := debate.Replay(log.Events())
	if err != nil || st.Verdict == nil {
		f.t.Fatalf("replay: %v", err)
	}
	record, err := filer{f}.File(ctx, st.Verdict)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := log.Seal(ctx, st.Verdict, record); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// openDebate journals the opening of a plan debate of rounds rounds
// between Critic (attacker) and Proposer (defender) through the real
// transcript journal: the session and its open event. The caller records
// the rest and closes the log.
func (f *fixture) openDebate(topic, position string, rounds int) (*debate.DebateSession, *transcripts.Log, *debate.State) {
	f.t.Helper()
	id := debate.NewID(time.Now(), debate.LayerPlan, topic)
	sess := &debate.DebateSession{
		ID: id, Topic: topic, Layer: debate.LayerPlan, Position: position, Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
		Budget:       debate.ConsensusBudget{MaxRounds: rounds, MaxTokens: 1 << 30, MaxTokensPerRound: 2000, MaxWallClockMs: 600000, ConvergenceRounds: 1},
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Workspace:    f.workspace,
	}
	ctx := context.Background()
	log, err := f.debates.Create(ctx, sess)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := log.Append(ctx, debate.EventOpen, 0, sess); err != nil {
		log.Close()
		f.t.Fatal(err)
	}
	st, err := debate.Replay(log.Events())
	if err != nil {
		log.Close()
		f.t.Fatal(err)
	}
	return sess, log, st
}

// request records, at elapsed, the request of st's next slot and returns
// the slot and the request's id; ok is false once the rounds are over.
func (f *fixture) request(log *transcripts.Log, st *debate.State, rounds int, elapsed int64) (round int, sp debate.Speaker, reqID string, ok bool) {
	f.t.Helper()
	round, sp, attempt := st.Next()
	if round > rounds {
		return round, sp, "", false
	}
	reqID = debate.RequestID(st.Session.ID, round, sp, attempt)
	ev := debate.RequestEvent{RequestID: reqID, MessageID: debate.RequestMessageID(reqID, ""), Round: round, Role: sp.Role, Agent: sp.Name, Attempt: attempt}
	if _, err := log.Append(context.Background(), debate.EventRequest, elapsed, ev); err != nil {
		f.t.Fatal(err)
	}
	return round, sp, reqID, true
}

// turn records t at elapsed and applies it to st.
func (f *fixture) turn(log *transcripts.Log, st *debate.State, elapsed int64, t debate.TurnRecord) {
	f.t.Helper()
	e, err := log.Append(context.Background(), debate.EventTurn, elapsed, t)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := st.Apply(&e); err != nil {
		f.t.Fatal(err)
	}
}

// benchDir is a directory for a generated root: in memory (/dev/shm) when
// there is one, since generating the transcript fsyncs every turn and only
// serving it is measured (or searched).
func benchDir(b testing.TB) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "parley-bench-"); err == nil {
			b.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return b.TempDir()
}

// BenchmarkDebatePage1000Turns measures what "parley serve" does for the
// page of a debate of 1000 turns: read the session, the verdict and the
// transcript, verify the whole chain, check the vault page, lay out and
// render the thread. Nothing is cached between requests.
func BenchmarkDebatePage1000Turns(b *testing.B) {
	f := newFixtureAt(b, benchDir(b))
	id := f.longDebate(500)
	benchPage(b, f, "/debates/"+id, "page", func(body string) bool {
		return strings.Count(body, `<article class="turn `) == 1000 && strings.Contains(body, `class="integrity ok"`) && strings.Contains(body, "BUDGET_EXHAUSTED")
	})
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSearch1500Debates measures a search of the debates (GET
// /search) over 1,500 debates of 3 rounds each (one in five never
// sealed), for words that are in no topic and in few debates, so that
// every debate's text is looked at.
func BenchmarkSearch1500Debates(b *testing.B) {
	f, vocab := manyDebates(b, 1500)
	benchPage(b, f, "/search?q="+url.QueryEscape(vocab[7]+" "+vocab[11]), "search", func(body string) bool { return strings.Contains(body, "<h2>Debates") })
}

// BenchmarkIndex1500Debates measures the index (GET /?q=…) over the same
// 1,500 debates, filtered by a word of few topics: the listing, not the
// audits of its rows (at most 100 a page, recomputed on every load).
func BenchmarkIndex1500Debates(b *testing.B) {
	f, vocab := manyDebates(b, 1500)
	benchPage(b, f, "/?q="+url.QueryEscape(vocab[7]), "page", func(body string) bool { return strings.Contains(body, "Debates") })
}

// manyDebates journals n debates of 3 rounds: most closed, one in ten
// stopped after its verdict, one in ten before.
func manyDebates(b *testing.B, n int) (*fixture, []string) {
	f := newFixtureAt(b, benchDir(b))
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := vocabulary(rng, 3000)
	for i := range n {
		end := endSealed
		switch i % 10 {
		case 3:
			end = endVerdict
		case 7:
			end = endOpen
		}
		f.quickDebate(rng, vocab, 3, end)
	}
	return f, vocab
}

// benchPage serves target once (its body must be ok), then measures
// serving it again, per unit.
func benchPage(b *testing.B, f *fixture, target, unit string, ok func(body string) bool) {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1:7420"
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !ok(rec.Body.String()) {
		b.Fatalf("%s: %d\n%s", target, rec.Code, clip.Bytes(rec.Body.String(), 2000))
	}
	b.SetBytes(int64(rec.Body.Len()))
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/"+unit)
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/"+unit)
}
