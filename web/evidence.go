package web

// The cited lines of a file a debate's turn gave as evidence, read-only,
// from the debate's workspace. Only a file some turn of that debate cited
// is shown, only under the workspace the debate checked evidence in (an
// *os.Root: neither ".." nor a symbolic link leads out), only a regular
// file, and only the lines around the citation.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vocab"
)

// Limits of the evidence view.
const (
	// evidenceContext is how many lines are shown before and after the
	// cited ones.
	evidenceContext = 8
	// maxEvidenceLines is the most lines one view shows (a whole-file
	// citation shows the file's start).
	maxEvidenceLines = 400
	// maxEvidenceLine is the longest line shown whole; longer ones are cut.
	maxEvidenceLine = 2000
	// maxEvidenceScan bounds the bytes read to reach the cited lines.
	maxEvidenceScan = 16 << 20
)

// evidenceLineRE splits "path:from" and "path:from-to", as the evidence
// checker does.
var evidenceLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):([0-9]+)(?:-([0-9]+))?$`) })

// fileEvidence reports whether an evidence check is a file under the
// workspace that the page can link to.
func fileEvidence(e debate.EvidenceCheck) bool {
	switch e.Kind {
	case "path", "line", "range":
		return e.Status == debate.EvidenceOK || e.Status == debate.EvidenceOutOfRange
	}
	return false
}

// evidenceURL is the address of the view of a cited file.
func evidenceURL(id string, e debate.EvidenceCheck) string {
	u := "/debates/" + id + "/evidence?ref=" + url.QueryEscape(e.Ref)
	if m := evidenceLineRE().FindStringSubmatch(e.Ref); m != nil {
		u += "#L" + m[2]
	}
	return u
}

type evidenceLine struct {
	N     int
	Text  string
	Cited bool
}

type evidenceData struct {
	ID, Topic, Ref, Path string
	From, To             int
	Lines                []evidenceLine
	Note                 string
}

// handleEvidence shows the lines a turn cited. Anything not cited by the
// debate, outside its workspace, not a regular file, or unreadable is 404.
func (s *Server) handleEvidence(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ref := r.URL.Query().Get("ref")
	if debate.ValidateID(id) != nil || ref == "" || len(ref) > 4096 {
		s.notFound(w, r)
		return
	}
	// Read as the debate's page reads it (a verdict.json that does not
	// parse is tampering the page shows, not a failure), without the vault.
	t, err := s.debates.Audit(r.Context(), id, transcripts.Witnesses{})
	if isNotFound(err) {
		s.notFound(w, r)
		return
	}
	if err != nil {
		s.fail(w, r, "evidence", err)
		return
	}
	if !cited(transcripts.NewView(t), ref) || t.Session == nil || t.Session.Workspace == "" {
		s.notFound(w, r)
		return
	}
	d, err := readEvidence(t.Session.Workspace, ref)
	if err != nil {
		// The debate's page links this citation: say why it cannot be
		// shown now rather than that there is no such page.
		s.log.Debug("evidence refused", "debate_id", id, "ref", ref, "err", err)
		why := "it is not a readable regular file inside the workspace now (parley serve --verbose logs why)"
		if errors.Is(err, fs.ErrNotExist) {
			why = "it is no longer there: the file, or the workspace, was moved or removed since the debate"
		}
		s.render(w, r, http.StatusNotFound, "error", layoutData{Title: "Evidence not found", Nav: "debates", Data: errorData{
			Title:    "Evidence not found",
			Message:  fmt.Sprintf("%s, cited in this debate, cannot be shown from its workspace %s: %s.", ref, t.Session.Workspace, why),
			Link:     "/debates/" + id,
			LinkText: "Back to the debate",
		}})
		return
	}
	d.ID, d.Topic, d.Ref = id, t.Session.Topic, ref
	s.render(w, r, http.StatusOK, "evidence", layoutData{Title: d.Path, Nav: "debates", MainClass: "narrow", Data: d})
}

// cited reports whether some turn of the debate whose evidence may be
// linked (a verified one) cited ref as a file.
func cited(v *transcripts.View, ref string) bool {
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			if !e.LinksEvidence() {
				continue
			}
			for _, ev := range e.Turn.Evidence {
				if ev.Ref == ref && fileEvidence(ev) {
					return true
				}
			}
		}
	}
	return false
}

// readEvidence reads the lines ref cites (with some around them) from the
// file it names under workspace.
func readEvidence(workspace, ref string) (evidenceData, error) {
	d := evidenceData{}
	p, from, to := strings.TrimSpace(ref), 0, 0
	if m := evidenceLineRE().FindStringSubmatch(p); m != nil {
		p = m[1]
		from, _ = strconv.Atoi(m[2])
		to = from
		if m[3] != "" {
			to, _ = strconv.Atoi(m[3])
		}
		if from < 1 || to < from {
			return d, errors.New("lines must be 1 ≤ from ≤ to")
		}
	}
	name := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsLocal(name) {
		return d, errors.New("not a relative path inside the workspace")
	}
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return d, err
	}
	defer root.Close()
	// O_NONBLOCK: a named pipe opens at once (and is refused below)
	// instead of waiting for a writer.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return d, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return d, err
	}
	if !st.Mode().IsRegular() {
		return d, fmt.Errorf("%s is not a regular file", name)
	}
	d.Path, d.From, d.To = filepath.ToSlash(name), from, to
	first, last := 1, maxEvidenceLines
	if from > 0 {
		first = max(1, from-evidenceContext)
		last = min(to+evidenceContext, first+maxEvidenceLines-1)
		if to > last {
			d.Note = fmt.Sprintf("The citation runs to line %d; the first %d lines of it are shown.", to, last-first+1)
		}
	}
	sc := bufio.NewReader(io.LimitReader(f, maxEvidenceScan))
	for n := 1; n <= last; n++ {
		line, err := sc.ReadString('\n')
		if line == "" && err != nil {
			if from > n {
				d.Note = fmt.Sprintf("The file has %s: the cited line %d is past its end.", vocab.Count(n-1, "line"), from)
			}
			break
		}
		if n < first {
			continue
		}
		line = strings.TrimRight(line, "\r\n")
		if !utf8.ValidString(line) {
			line = strings.ToValidUTF8(line, "\uFFFD")
		}
		if r := []rune(line); len(r) > maxEvidenceLine {
			line = string(r[:maxEvidenceLine]) + " …"
		}
		d.Lines = append(d.Lines, evidenceLine{N: n, Text: line, Cited: from > 0 && n >= from && n <= to})
	}
	if from == 0 && len(d.Lines) == maxEvidenceLines {
		if _, err := sc.Peek(1); err == nil {
			d.Note = fmt.Sprintf("The whole file was cited; its first %d lines are shown, and it goes on.", maxEvidenceLines)
		}
	}
	return d, nil
}
