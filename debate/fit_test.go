package debate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// limitSend is a transport's send that refuses a message whose wire form is
// over limit bytes, as a transport with a lower limit than
// inbox.MaxMessageBytes does, and counts the messages it was handed.
type limitSend struct {
	limit int
	sends int
	sent  *inbox.Message
}

func (l *limitSend) send(m *inbox.Message) error {
	l.sends++
	b, err := m.Encode()
	if err != nil {
		return err
	}
	if len(b) > l.limit {
		return fmt.Errorf("%w: %d bytes, limit %d", inbox.ErrTooLarge, len(b), l.limit)
	}
	l.sent = m
	return nil
}

// sendOneByOne is how a request was cut before sendFitting counted its
// cuts: every cut of one turn built and measured the whole message again.
// It is the reference sendFitting must answer as.
func sendOneByOne(req *TurnRequest, coordinator, agent string, _ int, send func(*inbox.Message) error) (*inbox.Message, error) {
	trimmed, evidence := 0, true
	for {
		m, err := NewRequestMessage(coordinator, agent, req)
		if err != nil {
			return nil, err
		}
		err = send(m)
		if err == nil {
			return m, nil
		}
		tr := req.Transcript
		switch {
		case !errors.Is(err, inbox.ErrTooLarge):
		case trimmed < len(tr):
			tr[trimmed].Text = leftOutText
			trimmed++
			continue
		case evidence && len(tr) > 0:
			for i := range tr {
				tr[i].EvidenceRefs, tr[i].Evidence = []string{}, nil
			}
			evidence = false
			continue
		case len(req.Context) > 0:
			req.Context = []ContextItem{}
			continue
		case len(tr) > 0:
			req.Transcript = tr[1:]
			continue
		}
		return nil, fmt.Errorf("send %s to %s: %w", req.RequestID, agent, err)
	}
}

// randomText is n runes drawn from letters, spaces, JSON's and HTML's
// escaped characters, line separators and multi-byte letters.
func randomText(rng *rand.Rand, n int) string {
	pool := []rune("abcdefghij klmnop qrstuv wxyz .,;\n\t\"\\<>&'é日本\u2028\u2029\x01\x7f`*#_")
	var b strings.Builder
	for range n {
		b.WriteRune(pool[rng.IntN(len(pool))])
	}
	return b.String()
}

// longRequest is a request whose transcript is about size bytes: turns
// whose arguments are long, short, empty or blank, with evidence, and
// positions of up to posLen runes and arguments of up to textLen.
func longRequest(rng *rand.Rand, size, posLen, textLen int) *TurnRequest {
	req := &TurnRequest{DebateID: "20260101-spec-long-abcdef", RequestID: "20260101-spec-long-abcdef-r9-attacker-1", Round: 9, Role: RoleAttacker,
		Topic: "A long debate", Layer: LayerSpec, Position: randomText(rng, 300),
		Context: []ContextItem{{Kind: "text", Text: randomText(rng, 20000)}},
		Budget:  TurnBudget{TokensThisTurn: 2000, Deadline: "2026-01-01T00:00:00.000Z"}, Attempt: 1, MaxRounds: 1000}
	total := 0
	for i := 0; total < size; i++ {
		role, agent := RoleAttacker, "Critic"
		if i%2 == 1 {
			role, agent = RoleDefender, "Proposer"
		}
		var text string
		switch rng.IntN(5) {
		case 0:
			text = ""
		case 1:
			text = "  \n "
		case 2:
			text = randomText(rng, rng.IntN(60))
		default:
			text = randomText(rng, rng.IntN(textLen))
		}
		pos := randomText(rng, 1+rng.IntN(posLen))
		t := TurnRecord{Turn: Turn{DebateID: req.DebateID, Round: i/2 + 1, Role: role, Position: pos, CounterTo: randomText(rng, rng.IntN(posLen)),
			EvidenceRefs: []string{"spec.md:10-20", "[[a page]]"}, ConfidenceChange: -1, Tokens: 50, Text: text},
			Agent: agent, RequestID: fmt.Sprintf("r%d", i), MessageID: fmt.Sprintf("m%d", i), PositionHash: PositionHash(pos),
			Evidence: []EvidenceCheck{{Ref: "spec.md:10-20", Kind: "range", Status: EvidenceOK, Hash: strings.Repeat("ab", 32)}, {Ref: "[[a page]]", Kind: "wiki", Status: EvidenceMissing, Detail: "no such page"}}}
		req.Transcript = append(req.Transcript, t)
		total += len(text) + 2*len(pos) + 300
	}
	return req
}

// TestOversizeRequestIsCutAsOneTurnAtATime: a request over the message size
// limit is cut exactly as leaving out one turn's argument (then one turn)
// at a time and measuring the whole message each time would cut it, on
// random transcripts and for transports with the default limit and lower
// ones.
func TestOversizeRequestIsCutAsOneTurnAtATime(t *testing.T) {
	t.Parallel()
	for seed := range 8 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			// A limit of 64 KiB, not 1 MiB, so that the reference
			// stays quick: the cuts are counted the same way.
			const all = 64 << 10
			posLen, size := 20, 80<<10 // arguments left out
			if seed%2 == 1 {
				posLen, size = 1000, 120<<10 // whole turns left out
			}
			limit := all
			if seed%4 >= 2 {
				limit = all*3/4 + rng.IntN(all/4) // a transport that allows less
			}
			req := longRequest(rng, size, posLen, 900)
			want, got := cloneRequest(req), cloneRequest(req)
			ref, fit := &limitSend{limit: limit}, &limitSend{limit: limit}
			wm, werr := sendOneByOne(want, "Coordinator", "Critic", all, ref.send)
			gm, gerr := sendFitting(got, "Coordinator", "Critic", all, fit.send)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("err %v, want %v", gerr, werr)
			}
			if werr != nil {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("the request sent differs from the one cut a turn at a time (%d turns, first text %q; want %d turns, first text %q)",
					len(got.Transcript), got.Transcript[0].Text, len(want.Transcript), want.Transcript[0].Text)
			}
			if gm.Text != wm.Text || !reflect.DeepEqual(gm.Fields, wm.Fields) {
				t.Fatal("the message sent differs from the one cut a turn at a time")
			}
			t.Logf("%d turns left of %d, %d sends (one turn at a time: %d)", len(got.Transcript), len(req.Transcript), fit.sends, ref.sends)
		})
	}
}

// TestOversizeRequestIsCutInFewSends: cutting a request over the limit
// builds and sends its message a few times, not once per turn cut.
func TestOversizeRequestIsCutInFewSends(t *testing.T) {
	t.Parallel()
	for _, posLen := range []int{200, 3000} {
		rng := rand.New(rand.NewPCG(uint64(posLen), 3))
		req := longRequest(rng, 2<<20, posLen, 9000)
		fit := &limitSend{limit: inbox.MaxMessageBytes}
		if _, err := sendFitting(req, "Coordinator", "Critic", inbox.MaxMessageBytes, fit.send); err != nil {
			t.Fatal(err)
		}
		// At most: the first, after the arguments, after the evidence,
		// after the context, after the turns.
		if fit.sends > 5 {
			t.Errorf("positions of %d runes: %d sends to cut the request", posLen, fit.sends)
		}
	}
}

func cloneRequest(r *TurnRequest) *TurnRequest {
	c := *r
	c.Context = append([]ContextItem(nil), r.Context...)
	c.Transcript = append([]TurnRecord(nil), r.Transcript...)
	for i := range c.Transcript {
		t := &c.Transcript[i]
		t.EvidenceRefs = append([]string(nil), t.EvidenceRefs...)
		t.Evidence = append([]EvidenceCheck(nil), t.Evidence...)
	}
	return &c
}

// BenchmarkSendOversizeRequest measures cutting a request of a long debate
// (1.2 MiB of turns with arguments of 3.6 KB on average) to the limit, against
// the same cut made one turn at a time.
func BenchmarkSendOversizeRequest(b *testing.B) {
	for _, bc := range []struct {
		name string
		send func(*TurnRequest, string, string, int, func(*inbox.Message) error) (*inbox.Message, error)
	}{{"counted", sendFitting}, {"one-by-one", sendOneByOne}} {
		b.Run(bc.name, func(b *testing.B) {
			req := longRequest(rand.New(rand.NewPCG(1, 1)), 1200<<10, 200, 9000)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.send(cloneRequest(req), "Coordinator", "Critic", inbox.MaxMessageBytes, (&limitSend{limit: inbox.MaxMessageBytes}).send); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
