package web

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// Live streams.
const (
	heartbeatEvery = 15 * time.Second
	maxStream      = time.Hour // then the browser reconnects on its own
	streamWrite    = 10 * time.Second
)

// handleLive streams a debate's changes as server-sent events: an event
// "live" carries the new inside of the page's <div id="live"> (rendered
// and escaped as the page is) whenever the transcript changes; once the
// debate is no longer running, an event "after" carries the page's last
// paragraph (its links: the vault page filed with the verdict) and an
// event "done" (data: the state) ends the stream. It ends too when the client goes, when the server shuts
// down, and after an hour (the browser then reconnects).
func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if debate.ValidateID(id) != nil {
		s.notFound(w, r)
		return
	}
	cur, err := s.debates.Stamp(id)
	if err != nil {
		if isNotFound(err) || errors.Is(err, fs.ErrNotExist) {
			s.notFound(w, r)
			return
		}
		s.fail(w, r, "live", err)
		return
	}
	if r.Method == http.MethodHead {
		// Headers only: a HEAD carries no stream, so it neither takes a
		// live slot nor waits for the debate to end.
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		return
	}
	select {
	case s.live <- struct{}{}:
		defer func() { <-s.live }()
	default:
		http.Error(w, "too many live pages open; reload to update", http.StatusServiceUnavailable)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(event, data string) bool {
		var b bytes.Buffer
		fmt.Fprintf(&b, "event: %s\n", event)
		// An EventSource ends a line at CR, LF or CR LF: a CR left in the
		// data (an agent's argument may hold one) would end the data line
		// and let the rest read as fields and events of its own.
		data = strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
		data = string(transcripts.SafeHTML([]byte(data)))
		for line := range strings.Lines(data) {
			fmt.Fprintf(&b, "data: %s\n", strings.TrimSuffix(line, "\n"))
		}
		if data == "" {
			b.WriteString("data:\n")
		}
		b.WriteString("\n")
		_ = rc.SetWriteDeadline(time.Now().Add(streamWrite))
		if _, err := w.Write(b.Bytes()); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	var last *transcripts.View
	update := func() bool {
		v, err := s.view(id)
		if err != nil {
			s.log.Warn("live: read the debate", "debate_id", id, "err", err)
			return true
		}
		last = v
		var b bytes.Buffer
		if err := transcripts.RenderHTMLLive(&b, v, s.htmlOptions(id)); err != nil {
			s.log.Warn("live: render", "debate_id", id, "err", err)
			return true
		}
		return send("live", b.String())
	}
	// The page was rendered before this stream opened: send the state now.
	if !update() {
		return
	}
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	end := time.NewTimer(maxStream)
	defer end.Stop()
	for cur.State == transcripts.StateRunning {
		select {
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		case <-end.C:
			return
		case <-beat.C:
			_ = rc.SetWriteDeadline(time.Now().Add(streamWrite))
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		case <-tick.C:
			next, err := s.debates.Stamp(id)
			if err != nil {
				return
			}
			if next != cur {
				cur = next
				if !update() {
					return
				}
			}
		}
	}
	if last != nil {
		var b bytes.Buffer
		if err := pages()["debate"].ExecuteTemplate(&b, "after", s.debateData(id, last)); err != nil {
			s.log.Warn("live: render", "debate_id", id, "err", err)
		} else if !send("after", b.String()) {
			return
		}
	}
	send("done", string(cur.State))
}
