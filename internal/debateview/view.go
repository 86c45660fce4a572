// Package debateview draws a running debate for a person: a line per
// event worth one, and, on a terminal, a status line redrawn in place
// (round r/M, tokens against the budget, seconds against the deadline, and
// whom the debate waits for), kept current by a ticker between events.
//
// It owns the drawing only: the words of each event's line are the
// caller's (Options.Line), as are the JSON forms. It imports debate and
// nothing else of parley's.
package debateview

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/parleyhq/parley/debate"
)

// clearLine returns the cursor to the start of the line and clears it.
const clearLine = "\r\033[K"

// tickEvery is how often the status line is redrawn between events.
const tickEvery = 250 * time.Millisecond

// View draws one debate. Event may be called from one goroutine at a time
// (the coordinator's); the ticker is the View's own goroutine, stopped by
// Close.
type View struct {
	out  io.Writer // the lines
	tty  io.Writer // the status line's control sequences; nil: no status line
	line func(debate.Progress) string

	mu   sync.Mutex
	last debate.Progress
	at   time.Time // wall time of last
	wait string    // who the debate waits for

	stop, done chan struct{}
	close      sync.Once
}

// New draws on out a line per event, the words line(p) says ("" for
// events shown only in the status line). With a terminal tty (the raw
// stream behind out, for parley's own control sequences) it also keeps a
// status line, and ticks when tick is set.
func New(out, tty io.Writer, line func(debate.Progress) string, tick bool) *View {
	v := &View{out: out, tty: tty, line: line}
	if tty != nil && tick {
		v.stop, v.done = make(chan struct{}), make(chan struct{})
		go v.tick()
	}
	return v
}

func (v *View) tick() {
	defer close(v.done)
	t := time.NewTicker(tickEvery)
	defer t.Stop()
	for {
		select {
		case <-v.stop:
			return
		case <-t.C:
			v.mu.Lock()
			v.status()
			v.mu.Unlock()
		}
	}
}

// Close stops the ticker and clears the status line. It may be called
// more than once.
func (v *View) Close() {
	v.close.Do(func() {
		if v.stop != nil {
			close(v.stop)
			<-v.done
		}
		if v.tty != nil {
			v.mu.Lock()
			fmt.Fprint(v.tty, clearLine)
			v.mu.Unlock()
		}
	})
}

// Event shows one recorded event.
func (v *View) Event(p debate.Progress) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.last, v.at = p, time.Now()
	line := v.line(p)
	if p.Event.Kind == debate.EventRequest {
		v.wait = fmt.Sprintf("waiting for %s (%s)", p.Agent, p.Role)
	} else if p.Event.Kind != debate.EventOpen && p.Event.Kind != debate.EventResume && p.Event.Kind != debate.EventClock {
		v.wait = ""
	}
	if v.tty != nil {
		fmt.Fprint(v.tty, clearLine)
	}
	if line != "" {
		fmt.Fprintln(v.out, line)
	}
	if v.tty != nil {
		v.status()
	}
}

// status redraws the terminal's status line; v.mu is held.
func (v *View) status() {
	p := v.last
	if p.DebateID == "" || p.Event.Kind == debate.EventVerdict {
		return
	}
	el := p.ElapsedMs + time.Since(v.at).Milliseconds()
	s := fmt.Sprintf("round %d/%d · tokens %d/%d · %.1f s / %.0f s", max(p.Round, 1), p.MaxRounds, p.Tokens, p.MaxTokens,
		float64(el)/1000, float64(p.MaxWallClockMs)/1000)
	if v.wait != "" {
		s += " · " + v.wait
	}
	fmt.Fprint(v.tty, clearLine)
	fmt.Fprint(v.out, s)
}
