package web

import (
	"html/template"
	"os"

	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/regfile"
)

// gateChart draws the gate's record from <root>/gate.jsonl, read now; no
// log (or one that cannot be read) draws nothing.
func (s *Server) gateChart() template.HTML {
	root, err := os.OpenRoot(s.debates.Dir())
	if err != nil {
		return ""
	}
	defer root.Close()
	// regfile: a named pipe planted as gate.jsonl is refused, not waited on.
	f, _, err := regfile.Open(root.OpenFile, gating.LogName)
	if err != nil {
		return ""
	}
	defer f.Close()
	entries, bad, err := gating.ReadLog(f)
	if err != nil {
		s.log.Warn("read the gate's log", "err", err)
		return ""
	}
	st := gating.Summarize(entries, bad, s.budget)
	return gateChart(gateDays(entries, s.budget), st)
}
