package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// ending is how a generated debate ends.
type ending int

const (
	endSealed  ending = iota // verdict event, seal, verdict.json
	endVerdict               // verdict event, never sealed (interrupted)
	endOpen                  // turns only (interrupted)
)

// wordsOf is n words drawn from vocab.
func wordsOf(rng *rand.Rand, vocab []string, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocab[rng.IntN(len(vocab))]
	}
	return strings.Join(w, " ")
}

// quickDebate journals a debate of rounds rounds between an attacker and a
// defender through the real transcript journal, every text drawn from
// vocab, and ends it as end says (without filing a record: search reads
// the debates only). It returns the debate's id.
func (f *fixture) quickDebate(rng *rand.Rand, vocab []string, rounds int, end ending) string {
	f.t.Helper()
	ctx := context.Background()
	sess, log, st := f.openDebate(wordsOf(rng, vocab, 2+rng.IntN(4)), wordsOf(rng, vocab, 4), rounds)
	id := sess.ID
	defer log.Close()
	must := func(_ debate.Event, err error) {
		if err != nil {
			f.t.Fatal(err)
		}
	}
	elapsed := int64(0)
	for {
		elapsed += 3
		round, sp, reqID, ok := f.request(log, st, rounds, elapsed)
		if !ok {
			break
		}
		pos := fmt.Sprintf("%s %d %s", sp.Role, round, wordsOf(rng, vocab, 3))
		t := debate.TurnRecord{
			Turn:  debate.Turn{DebateID: id, Round: round, Role: sp.Role, Position: pos, ConfidenceChange: -1, Tokens: 120, Text: wordsOf(rng, vocab, 40+rng.IntN(40))},
			Agent: sp.Name, RequestID: reqID, MessageID: debate.RequestMessageID(reqID+":reply", ""), PositionHash: debate.PositionHash(pos),
		}
		if sp.Role == debate.RoleAttacker {
			t.CounterTo = wordsOf(rng, vocab, 3)
		}
		f.turn(log, st, elapsed, t)
		if end == endOpen && round == rounds && sp.Role == debate.RoleDefender {
			return id
		}
		if o, done := st.Judge(elapsed); done {
			o.Closed = inbox.Now()
			o.Reason = wordsOf(rng, vocab, 6)
			must(log.Append(ctx, debate.EventVerdict, elapsed, o))
			if end == endSealed {
				if err := log.Seal(ctx, o, ""); err != nil {
					f.t.Fatal(err)
				}
			}
			return id
		}
	}
	return id
}

// vocabulary is n made-up words, the same for a seed.
func vocabulary(rng *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	out := make([]string, n)
	for i := range out {
		b := make([]byte, 3+rng.IntN(7))
		for j := range b {
			b[j] = letters[rng.IntN(len(letters))]
		}
		out[i] = string(b)
	}
	return out
}
