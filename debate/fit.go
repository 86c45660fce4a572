package debate

import (
	"errors"
	"fmt"
	"sort"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
)

// sendFitting builds req's message from the coordinator to agent and sends
// it with send. A request over the message size limit (send fails with
// inbox.ErrTooLarge) leaves out the oldest turns' arguments (their
// positions stay), then the turns' evidence, then the context, then the
// oldest turns themselves, each as little as makes it fit: the standing
// position is always there, and a debate never stops on a request it
// cannot send. The context (the spec or plan under debate) goes after the
// evidence: the agents' own citations, already checked and recorded,
// matter less to the next turn than the document they argue about. req is changed to what was sent; the message sent is
// returned.
//
// The first cut of each kind is counted against limit, the size every
// transport enforces (inbox.MaxMessageBytes), rather than found by building
// and measuring the whole message once per turn (seconds, even minutes, for
// each request of a debate of a thousand rounds); a transport with a lower
// limit still refuses it, and the cut goes on one turn at a time from there,
// which ends where cutting one turn at a time from the start would.
func sendFitting(req *TurnRequest, coordinator, agent string, limit int, send func(*inbox.Message) error) (*inbox.Message, error) {
	trimmed, evidence, dropped := 0, true, false
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
			n := trimmed + 1
			if trimmed == 0 {
				if size, serr := m.Size(); serr == nil {
					n = textsToLeaveOut(tr, size, limit)
				}
			}
			for ; trimmed < n; trimmed++ {
				tr[trimmed].Text = leftOutText
			}
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
			n := 1
			if !dropped {
				dropped = true
				n = turnsToDrop(tr, func(tr []TurnRecord) (int, error) {
					q := *req
					q.Transcript = tr
					m, err := NewRequestMessage(coordinator, agent, &q)
					if err != nil {
						return 0, err
					}
					return m.Size()
				}, limit)
			}
			req.Transcript = tr[n:]
			continue
		}
		return nil, fmt.Errorf("send %s to %s: %w", req.RequestID, agent, err)
	}
}

// leftOutText replaces the argument of a turn left out of a request that
// would exceed the message size limit.
const leftOutText = "(left out: the request would exceed the message size limit)"

// textsToLeaveOut is how many of the oldest turns of tr must have their
// argument replaced by leftOutText for a request message to be within
// limit bytes, when its wire form is size bytes with every argument in:
// the fewest, counted as leaving them out one at a time and measuring the
// message each time would count them, or len(tr) when no number does.
// It measures each turn once, not the whole message once per turn.
func textsToLeaveOut(tr []TurnRecord, size, limit int) int {
	for k := range tr {
		size += leftOutGrowth(&tr[k])
		if size <= limit {
			return k + 1
		}
	}
	return len(tr)
}

// leftOutGrowth is how many bytes a request message's wire form grows by
// (less than 0: shrinks) when turn t's argument is replaced by
// leftOutText. A turn is in the message twice, each time as JSON and
// independently of the other turns: as its element of the typed field
// "transcript", and as its line of the Markdown text (render writes
// renderTurnLine once for every turn). A short argument grows.
func leftOutGrowth(t *TurnRecord) int {
	c := *t
	c.Text = leftOutText
	return jsonLen(&c) - jsonLen(t) + jsonLen(renderTurnLine(&c.Turn, c.Agent)) - jsonLen(renderTurnLine(&t.Turn, t.Agent))
}

// jsonLen is the length of v encoded as JSON, as a message encodes it; 0
// when it does not encode.
func jsonLen(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// turnsToDrop is how many of the oldest turns of tr a request must leave
// out for its message to be within limit bytes, where size measures the
// message with only the given turns: the fewest, as leaving them out one
// at a time would count them, or len(tr) when no number does. The message
// only shrinks as turns go (each takes its element and its line with it),
// so it measures the message about log2(len(tr)) times, not once per turn.
// A failed measure counts as too large.
func turnsToDrop(tr []TurnRecord, size func([]TurnRecord) (int, error), limit int) int {
	i := sort.Search(len(tr), func(i int) bool {
		n, err := size(tr[i+1:])
		return err == nil && n <= limit
	})
	return min(i+1, len(tr))
}
