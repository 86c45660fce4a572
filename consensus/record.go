package consensus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/vocab"
)

// Where records live in the vault.
const (
	// Folder is the records' folder, relative to the vault.
	Folder = "wiki/consensus"
	// debatePages is the folder of the debates' pages (package
	// transcripts writes them, wiki/debates/<debate-id>.md).
	debatePages = "wiki/debates"
	// IndexName is the index page's file name in Folder.
	IndexName = "consensus-records.md"
	// MaxSlug bounds a topic slug (SPEC §6).
	MaxSlug = 60
	// maxStoredPosition bounds the final position kept in the frontmatter
	// (its hash always covers the whole position).
	maxStoredPosition = 8000
)

// Status says whether a record is the current answer to its question.
type Status string

// The statuses of SPEC §6.
const (
	StatusActive     Status = "active"
	StatusSuperseded Status = "superseded"
)

// ParseStatus accepts "active" or "superseded".
func ParseStatus(s string) (Status, error) {
	switch st := Status(strings.ToLower(strings.TrimSpace(s))); st {
	case StatusActive, StatusSuperseded:
		return st, nil
	}
	return "", fmt.Errorf("unknown status %q (use active or superseded)", s)
}

// Record is a consensus record as read back from the vault: the debate it
// files (the debate's one JSON view, debate.Summary, with what the
// record's frontmatter keeps of it) and the record's own place in the
// vault and in its question's chain.
type Record struct {
	debate.Summary
	// Name is the file name without ".md", the name wikilinks use.
	Name string `json:"name"`
	// Path is the slash path relative to the vault.
	Path         string   `json:"path"`
	Slug         string   `json:"slug"`
	Status       Status   `json:"status"`
	Date         string   `json:"date"`
	Created      string   `json:"created"`
	Updated      string   `json:"updated"`
	Participants []string `json:"participants"`
	// FinalPositionHash is debate.PositionHash of the whole of
	// FinalPosition (the position that stands, "" when nothing was agreed).
	FinalPositionHash string `json:"final_position_hash,omitempty"`
	// Supersedes and SupersededBy name the neighbouring records of the
	// same question ("" if none).
	Supersedes   string `json:"supersedes,omitempty"`
	SupersededBy string `json:"superseded_by,omitempty"`
	// DebateStarted is when the record's debate started (RFC 3339, UTC;
	// "" in records filed before parley wrote it).
	DebateStarted string `json:"debate_started,omitempty"`
	// OvertakenBy names the record that was the question's current one
	// when this record was filed, from a debate that started after this
	// record's debate (a debate resumed late): that record stands, and
	// this one was filed superseded by it. "" for every other record.
	OvertakenBy string `json:"overtaken_by,omitempty"`
	// EvidenceLines are the cited line ranges with the hash of their lines
	// at filing ("<sha256> path:from-to").
	EvidenceLines []string `json:"evidence_lines,omitempty"`
}

// Binding reports whether the record settles its question: the debate
// proceeded on a position (CONSENSUS_REACHED, or BUDGET_EXHAUSTED on a last
// agreed position). A DEADLOCK, a TIMEOUT or an exhausted budget without
// agreement bind nothing: the question is open.
func (r *Record) Binding() bool {
	return r.Action == debate.ActionProceed && r.FinalPositionHash != "" &&
		(r.Verdict == debate.ConsensusReached || r.Verdict == debate.BudgetExhausted)
}

func (r *Record) key() string { return string(r.Layer) + "/" + r.Slug }

// TopicSlug is the slug that names a topic's records (SPEC §6): lower-case
// ASCII letters, digits and hyphens, transliterated, at most MaxSlug
// characters. A topic with nothing transliterable gets "topic-" and a hash
// (vocab.SlugOr); one with some letters, digits or symbols the slug cannot
// spell (a task id in Japanese, an emoji) ends in 8 hex digits of a hash of
// its words, so that topics differing only there stay two questions. A topic whose slug would be longer than MaxSlug is cut
// at a word boundary and ends in 8 hex digits of the whole slug's hash, so
// two long topics that differ only after the cut stay two questions.
// Topics that differ only in case, punctuation or spacing share a slug:
// they are the same question.
func TopicSlug(topic string) string {
	full := vocab.Slug(topic, 4*len(topic)+8)
	if full == "" {
		return vocab.SlugOr(topic, MaxSlug)
	}
	if vocab.SlugLoses(topic) {
		// Part of the topic is not in the slug: the hash of its words
		// tells "Closure of task 東京" from "Closure of task 大阪".
		sum := sha256.Sum256([]byte(questionWords(topic)))
		return vocab.Slug(full, MaxSlug-9) + "-" + hex.EncodeToString(sum[:4])
	}
	if len(full) <= MaxSlug {
		return full
	}
	sum := sha256.Sum256([]byte(full))
	return vocab.Slug(full, MaxSlug-9) + "-" + hex.EncodeToString(sum[:4])
}

// questionWords is topic without what does not tell two questions apart:
// case, punctuation and spacing (its letters, digits and symbols, in lower
// case, words separated by one space).
func questionWords(topic string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(norm.NFC.String(topic)), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSymbol(r) || unicode.Is(unicode.Mn, r))
	}), " ")
}

// recordYAML is the part of a record's frontmatter that lookup reads.
// Other keys (tags, related, keys added by hand) are ignored.
type recordYAML struct {
	Type              string   `yaml:"type"`
	Layer             string   `yaml:"layer"`
	Verdict           string   `yaml:"verdict"`
	Date              string   `yaml:"date"`
	Participants      []string `yaml:"participants"`
	Topic             string   `yaml:"topic"`
	Status            string   `yaml:"status"`
	Created           string   `yaml:"created"`
	Updated           string   `yaml:"updated"`
	DebateID          string   `yaml:"debate_id"`
	Action            string   `yaml:"action"`
	FinalPosition     string   `yaml:"final_position"`
	FinalPositionHash string   `yaml:"final_position_hash"`
	Supersedes        string   `yaml:"supersedes"`
	SupersededBy      string   `yaml:"superseded_by"`
	EvidenceLines     []string `yaml:"evidence_lines"`
	DebateStarted     string   `yaml:"debate_started"`
	OvertakenBy       string   `yaml:"overtaken_by"`
}

// parseRecord reads a record file's bytes. It returns (nil, "", nil) for a
// valid page of another type (the index page, notes), and an error
// wrapping ErrNotRecord for a page that is broken or claims to be a record
// without being a valid one. text is what search indexes: the topic and the
// body's position and rationale sections.
func parseRecord(name string, data []byte) (*Record, string, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, "", fmt.Errorf("%w: binary content", ErrNotRecord)
	}
	y, body, err := decodeRecordYAML(data)
	if errors.Is(err, vault.ErrNoFrontmatter) && !bytes.HasPrefix(bytes.TrimLeft(data, "\r\n"), []byte("---")) {
		return nil, "", nil // a page without frontmatter: a note, not a record
	}
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNotRecord, err)
	}
	if y.Type != "consensus" {
		return nil, "", nil
	}
	r := &Record{
		Summary: debate.Summary{
			DebateID: y.DebateID, Topic: strings.TrimSpace(y.Topic),
			Action: debate.Action(y.Action), FinalPosition: y.FinalPosition,
		},
		Name:              strings.TrimSuffix(name, ".md"),
		Path:              Folder + "/" + name,
		Date:              y.Date,
		Created:           y.Created,
		Updated:           y.Updated,
		Participants:      y.Participants,
		FinalPositionHash: strings.ToLower(strings.TrimSpace(y.FinalPositionHash)),
		Supersedes:        LinkName(y.Supersedes),
		SupersededBy:      LinkName(y.SupersededBy),
		EvidenceLines:     y.EvidenceLines,
		DebateStarted:     y.DebateStarted,
		OvertakenBy:       LinkName(y.OvertakenBy),
	}
	if r.Layer, err = debate.ParseLayer(y.Layer); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNotRecord, err)
	}
	if r.Verdict, err = debate.ParseVerdict(y.Verdict); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNotRecord, err)
	}
	if r.Status, err = ParseStatus(y.Status); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNotRecord, err)
	}
	if r.Topic == "" {
		return nil, "", fmt.Errorf("%w: no topic", ErrNotRecord)
	}
	if r.FinalPositionHash == "" && r.FinalPosition != "" {
		r.FinalPositionHash = debate.PositionHash(r.FinalPosition)
	}
	r.Slug = TopicSlug(r.Topic)
	return r, searchText(r, body), nil
}

// decodeRecordYAML decodes a record's frontmatter: through the fast path
// for the flat frontmatter parley writes, else (a record edited by hand)
// through the YAML decoder. Both give the same fields (TestFlatDecodeAgrees,
// FuzzFlatDecode).
func decodeRecordYAML(data []byte) (recordYAML, []byte, error) {
	var y recordYAML
	if body, ok := vault.ScanFlatFrontmatter(data, y.setFlat); ok {
		return y, body, nil
	}
	y = recordYAML{}
	body, err := vault.DecodeFrontmatter(data, &y)
	return y, body, err
}

// setFlat sets the field of a flat frontmatter key; it returns false
// when the value has a type the field does not take (the YAML decoder
// then says why).
func (y *recordYAML) setFlat(key []byte, v vault.FlatValue) bool {
	str := func(dst *string) bool {
		if v.IsList {
			return false
		}
		*dst = v.Str
		return true
	}
	list := func(dst *[]string) bool {
		switch {
		case v.Null:
			*dst = nil
		case v.IsList:
			*dst = v.List
		default:
			return false
		}
		return true
	}
	switch string(key) {
	case "type":
		return str(&y.Type)
	case "layer":
		return str(&y.Layer)
	case "verdict":
		return str(&y.Verdict)
	case "date":
		return str(&y.Date)
	case "participants":
		return list(&y.Participants)
	case "topic":
		return str(&y.Topic)
	case "status":
		return str(&y.Status)
	case "created":
		return str(&y.Created)
	case "updated":
		return str(&y.Updated)
	case "debate_id":
		return str(&y.DebateID)
	case "action":
		return str(&y.Action)
	case "final_position":
		return str(&y.FinalPosition)
	case "final_position_hash":
		return str(&y.FinalPositionHash)
	case "supersedes":
		return str(&y.Supersedes)
	case "superseded_by":
		return str(&y.SupersededBy)
	case "evidence_lines":
		return list(&y.EvidenceLines)
	case "debate_started":
		return str(&y.DebateStarted)
	case "overtaken_by":
		return str(&y.OvertakenBy)
	}
	return true // a key lookup does not read
}

// InRecordsFolder reports whether s, a name, wikilink, file name or path
// as LinkName reads it, can name a record: a bare name, or a path whose
// folder is the records folder ("wiki/consensus/spec-x.md",
// "[[consensus/spec-x]]", the absolute path of a file in it). A path into
// another folder (an archive/ under it, wiki/debates/) names no record,
// not the record of the same name in the records folder.
func InRecordsFolder(s string) bool {
	s = strings.TrimSpace(s)
	if l, err := vault.ParseLink(s); err == nil {
		s = l.Target
	}
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return true
	}
	dir := path.Clean(s[:i])
	if dir == "." { // "./spec-x.md"
		return true
	}
	dir = path.Clean("/" + dir)
	return dir == "/"+Folder || dir == "/consensus" || strings.HasSuffix(dir, "/"+Folder)
}

// LinkName is the page name a wikilink, file name or vault path names:
// "[[spec-x]]", "[[spec-x#Rationale|alias]]", "spec-x.md" and
// "wiki/consensus/spec-x.md" all name "spec-x", and so does "spec-x.MD"
// (the extension in any case). Its case is kept.
func LinkName(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if l, err := vault.ParseLink(s); err == nil {
		s = l.Target
	}
	if n := len(s) - len(".md"); n >= 0 && strings.EqualFold(s[n:], ".md") {
		s = s[:n]
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// indexedSections are the body sections search reads besides the topic:
// the positions and the reasons, not the tables or the evidence list.
var indexedSections = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"final position": true, "rationale": true, "positions": true, "last positions": true,
		"deadlock analysis": true, "exhaustion analysis": true,
	}
})

// searchText is the topic (twice, so that it weighs more) and the indexed
// sections of the body.
func searchText(r *Record, body []byte) string {
	var b strings.Builder
	b.Grow(2*len(r.Topic) + min(len(body), 16<<10))
	b.WriteString(r.Topic)
	b.WriteByte('\n')
	b.WriteString(r.Topic)
	b.WriteByte('\n')
	keep := false
	for len(body) > 0 {
		line, rest, _ := bytes.Cut(body, []byte("\n"))
		body = rest
		if bytes.HasPrefix(line, []byte("## ")) {
			keep = indexedSections()[strings.ToLower(strings.TrimSpace(string(line[3:])))]
			continue
		}
		if bytes.HasPrefix(line, []byte("# ")) {
			keep = false
			continue
		}
		if keep && b.Len() < 16<<10 && !boilerplate(line) {
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// boilerplate are the lines parley writes the same way in every record;
// they would only make every record match every query a little.
func boilerplate(line []byte) bool {
	return bytes.HasPrefix(line, []byte("The debate closed by the rule ")) || bytes.HasPrefix(line, []byte("Verdict **")) ||
		bytes.HasPrefix(line, []byte("_No position"))
}
