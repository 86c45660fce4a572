package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/openai"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// Consensus is an open consensus store and what front ends do with it:
// list, show, search and check the filed records, file a closed debate's
// record, lint the vault. Its methods are safe for concurrent use (the
// store's are).
type Consensus struct {
	s    *consensus.Store
	app  *App // nil for ConsensusOf: filing needs an App
	done func()
}

// OpenConsensus opens the vault (creating it when missing) and the
// consensus store of the root, with the embedding and judge models that
// config.json's consensus section names, and a seal check: a record whose
// debate does not verify against its seal binds nothing (CheckTampered).
// The caller closes it.
func (a *App) OpenConsensus() (*Consensus, error) { return a.openConsensus() }

// openConsensus is OpenConsensus with more options for the store.
func (a *App) openConsensus(more ...consensus.Option) (*Consensus, error) {
	opts, err := a.consensusModels()
	if err != nil {
		return nil, err
	}
	v, err := vault.Create(a.vault, vault.WithLogger(a.log))
	if err != nil {
		return nil, err
	}
	c := &Consensus{app: a}
	opts = append(append(opts, more...), consensus.WithLogger(a.log), func(cs *consensus.Store) {
		consensus.WithSealCheck(sealCheck{a: a, cs: cs})(cs)
	})
	c.s, err = consensus.Open(a.root, v, opts...)
	if err != nil {
		v.Close()
		return nil, err
	}
	c.done = func() { c.s.Close(); v.Close() }
	return c, nil
}

// ReadConsensus opens the consensus store as OpenConsensus does, for a
// call that only reads records (list, show, search, check, lint): a vault
// that was named (Options.Vault, $PARLEY_VAULT) and does not exist is an
// error wrapping ErrNoVault, and is not made: a misspelt name would
// otherwise answer from an empty vault ("none"). So is a default vault,
// <root>/vault, that is gone although a debate under the root filed its
// record (a vault removed or moved away): made again empty, it would
// answer "none" to a question its records settled. The default vault of
// a root that never filed anything is part of the root, and is made as
// OpenConsensus makes it. A root whose cache cannot be written (a root on
// a read-only file system, or one the user may only read) is read all the
// same: the lookup index is built for this call alone
// (consensus.WithReadOnlyRoot).
func (a *App) ReadConsensus() (*Consensus, error) {
	if _, err := os.Stat(a.vault); errors.Is(err, fs.ErrNotExist) {
		if a.vaultNamed {
			return nil, fmt.Errorf("%w at %s", ErrNoVault, a.vault)
		}
		id, record, err := a.filedDebate()
		if err != nil {
			return nil, err
		}
		if id != "" {
			return nil, fmt.Errorf("%w at %s, though debate %s filed its record %s there", ErrNoVault, a.vault, id, record)
		}
	}
	return a.openConsensus(consensus.WithReadOnlyRoot())
}

// FilingConsensus opens the consensus store to file debate id again, as
// OpenConsensus does (a vault that does not exist is made: a debate
// stopped before its first filing may file into a new vault), except
// when id's verdict.json names the record the debate filed: then a vault
// that does not exist is an error wrapping ErrNoVault (a typo in the
// vault's name, or a vault moved away), and nothing is made. A vault made
// empty for it could not take the record again: its seal names the one
// filed.
func (a *App) FilingConsensus(id string) (*Consensus, error) {
	if _, err := os.Stat(a.vault); errors.Is(err, fs.ErrNotExist) {
		st, err := a.OpenDebates()
		if err != nil {
			return nil, err
		}
		v, verr := st.Verdict(id)
		st.Close()
		if verr == nil && v.Record != "" {
			return nil, fmt.Errorf("%w at %s, though debate %s filed its record %s there", ErrNoVault, a.vault, id, v.Record)
		}
	}
	return a.OpenConsensus()
}

// filedDebate is a debate under the root that filed a record (its
// verdict.json names one), and that record's vault path; "" when none did.
func (a *App) filedDebate() (id, record string, err error) {
	ids, err := a.DebateIDs()
	if err != nil || len(ids) == 0 {
		return "", "", err
	}
	st, err := a.OpenDebates()
	if err != nil {
		return "", "", err
	}
	defer st.Close()
	sort.Strings(ids)
	for _, id := range ids {
		if v, err := st.Verdict(id); err == nil && v.Record != "" {
			return id, v.Record, nil
		}
	}
	return "", "", nil
}

// ConsensusOf is the operations over a store its caller opened (and
// closes): a server that keeps one store for its lifetime. FileFrom needs
// an App and is refused.
func ConsensusOf(s *consensus.Store) *Consensus { return &Consensus{s: s, done: func() {}} }

// Store is the consensus store itself.
func (c *Consensus) Store() *consensus.Store { return c.s }

// Close releases the store and the vault OpenConsensus opened.
func (c *Consensus) Close() { c.done() }

// File is where record r lives on disk.
func (c *Consensus) File(r *consensus.Record) string {
	return filepath.Join(c.s.Vault().Path(), filepath.FromSlash(r.Path))
}

// Skipped are the record files the store could not read, one warning
// each ("skipped PATH: REASON"), for the front end to show.
func (c *Consensus) Skipped() []string {
	var out []string
	for _, sk := range c.s.Skipped() {
		out = append(out, "skipped "+sk.Path+": "+sk.Reason)
	}
	return out
}

// consensusModels reads consensus.embeddings and consensus.judge
// ("openai:MODEL") from config.json; the endpoint of each is the openai
// section's for MODEL. Both are off by default.
func (a *App) consensusModels() ([]consensus.Option, error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	client := func(spec string) (*openai.Client, error) {
		model := config.ModelOf(spec)
		e := cfg.OpenAI.Endpoint(model)
		key := ""
		if e.APIKeyEnv != "" {
			key = os.Getenv(e.APIKeyEnv)
		}
		timeout := min(e.RequestTimeout(), 30*time.Second)
		return openai.New(agent.OpenAIConfig{ChatSettings: agent.ChatSettings{BaseURL: e.BaseURL, APIKeyEnv: e.APIKeyEnv, RequestTimeout: timeout}, Model: model, APIKey: key})
	}
	var opts []consensus.Option
	if spec := cfg.Consensus.Embeddings; spec != "" {
		c, err := client(spec)
		if err != nil {
			return nil, fmt.Errorf("consensus.embeddings: %w", err)
		}
		opts = append(opts, consensus.WithEmbedder(c, config.ModelOf(spec)))
	}
	if spec := cfg.Consensus.Judge; spec != "" {
		c, err := client(spec)
		if err != nil {
			return nil, fmt.Errorf("consensus.judge: %w", err)
		}
		opts = append(opts, consensus.WithJudge(c, config.ModelOf(spec)))
	}
	return opts, nil
}

// RecordQuery selects records; every field is optional and as the user
// typed it.
type RecordQuery struct {
	Layer   string // spec, plan or verify
	Verdict string // CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT
	Status  string // active or superseded
}

// Filter parses q. A bad field is an *Error (ProblemInvalid) naming it.
func (q RecordQuery) Filter() (consensus.Filter, error) {
	var f consensus.Filter
	var err error
	if f.Layer, f.Verdict, err = parseLayerVerdict(q.Layer, q.Verdict, recordVerdicts); err != nil {
		return f, err
	}
	if q.Status != "" {
		if f.Status, err = consensus.ParseStatus(q.Status); err != nil {
			return f, refuse(ProblemInvalid, "status", err)
		}
	}
	return f, nil
}

// parseLayerVerdict parses the layer and verdict a query names (either may
// be empty: no filter). A bad one is an *Error naming its field.
// The verdicts a query may name: those a record can hold, and those a
// debate can end in (UNAVAILABLE is never filed).
const (
	recordVerdicts = "CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT"
	debateVerdicts = "CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED, TIMEOUT or UNAVAILABLE"
)

func parseLayerVerdict(layer, verdict, verdicts string) (l debate.Layer, v debate.Verdict, err error) {
	if layer != "" {
		if l, err = debate.ParseLayer(layer); err != nil {
			return l, v, refuse(ProblemInvalid, "layer", err)
		}
	}
	if verdict != "" {
		if v, err = debate.ParseVerdict(verdict); err != nil {
			return l, v, refuse(ProblemInvalid, "verdict", fmt.Errorf("%w (use %s)", err, verdicts))
		}
	}
	return l, v, nil
}

// List is the records q selects, newest first.
func (c *Consensus) List(ctx context.Context, q RecordQuery) ([]consensus.Record, error) {
	f, err := q.Filter()
	if err != nil {
		return nil, err
	}
	return c.s.Records(ctx, f)
}

// SearchInput is a search of the records.
type SearchInput struct {
	Query string
	RecordQuery
	// Limit is how many results at most; it must be at least 1.
	Limit int
}

// Validate reports what Search would refuse in in (an *Error), so that
// a front end can refuse it before it opens anything.
func (in SearchInput) Validate() error {
	_, err := in.parse()
	return err
}

// parse is in's filter, or what is wrong with in.
func (in SearchInput) parse() (consensus.Filter, error) {
	if strings.TrimSpace(in.Query) == "" {
		return consensus.Filter{}, newError(ProblemMissing, "query", nil, "{query} is empty: give the words to look for in the records")
	}
	f, err := in.Filter()
	if err != nil {
		return f, err
	}
	if in.Limit < 1 {
		return f, refuse(ProblemInvalid, "limit", errors.New("must be at least 1"))
	}
	return f, nil
}

// SearchHit is one ranked record: what "consensus search --json" prints
// and consensus_search returns.
type SearchHit struct {
	consensus.Record
	Score float64 `json:"score"`
}

// Search ranks the records in.RecordQuery selects by relevance to
// in.Query (BM25 over topic, positions and rationale), best first.
func (c *Consensus) Search(ctx context.Context, in SearchInput) ([]SearchHit, error) {
	f, err := in.parse()
	if err != nil {
		return nil, err
	}
	hits, err := c.s.Search(ctx, in.Query, f, in.Limit)
	if err != nil {
		return nil, err
	}
	out := make([]SearchHit, len(hits))
	for i, h := range hits {
		out[i] = SearchHit{Record: h.Record, Score: round3(h.Score)}
	}
	return out, nil
}

// RecordPage is one record with its file and Markdown body: what
// "consensus show --json" prints and consensus_show returns.
type RecordPage struct {
	consensus.Record
	File string `json:"file"`
	Body string `json:"body" jsonschema:"the record's Markdown after its frontmatter"`
	// Current names the record that answers the question now when it is
	// another one (this one superseded or overtaken); "" when this record
	// is the question's answer, or none is.
	Current string `json:"current,omitempty" jsonschema:"the question's active record, the one that answers it now, when this record is not it"`
}

// Show reads the record name names: a record's name, file name or
// wikilink, the id of the debate it records, or a unique prefix of a name
// or an id (ResolveRecord). None is consensus.ErrNoRecord; several, an
// *Error of ProblemAmbiguous.
func (c *Consensus) Show(ctx context.Context, name string) (*RecordPage, error) {
	if strings.TrimSpace(name) == "" {
		return nil, newError(ProblemMissing, "name", nil, "{name} is empty: give a record's name, file name, [[wikilink]] or debate id")
	}
	resolved, err := ResolveRecord(ctx, c.s, name)
	if err != nil {
		return nil, err
	}
	r, page, err := c.s.Record(ctx, resolved)
	if err != nil {
		return nil, err
	}
	out := &RecordPage{Record: *r, File: c.File(r), Body: string(page.Body)}
	if r.Status != consensus.StatusActive || r.OvertakenBy != "" {
		cur, err := c.s.Current(ctx, r)
		if err != nil {
			return nil, err
		}
		if cur != r.Name {
			out.Current = cur
		}
	}
	return out, nil
}

// CheckInput is a position about to be taken on a question.
type CheckInput struct {
	Layer    string // spec, plan or verify
	Topic    string
	Position string
}

// CheckResult is a position checked against the filed consensus: what
// "consensus check --json" prints and consensus_check returns. Status is
// consistent, conflict (the position contradicts the active record: do
// not proceed), unclear (parley cannot tell: do not take it for a pass),
// open (the record bound nothing), tampered (the record does not verify
// against its seal) or none.
type CheckResult struct {
	Status consensus.CheckStatus `json:"status" jsonschema:"consistent, conflict (do not proceed), unclear (parley cannot tell: do not proceed without a person), open (the question is still open), tampered (the record does not verify against its debate's seal: do not proceed) or none"`
	// Name, Path, Topic and DebateID are the active record's, under the
	// names "consensus list/show/search --json" give them; "" when none.
	Name     string `json:"name,omitempty" jsonschema:"the active record's name, as consensus list and show give it"`
	Path     string `json:"path,omitempty" jsonschema:"the active record's vault path, as consensus list and show give it"`
	Topic    string `json:"topic,omitempty" jsonschema:"the active record's topic"`
	DebateID string `json:"debate_id,omitempty" jsonschema:"the debate the active record files"`
	// Record and RecordTopic are Path and Topic under the names this
	// answer first gave them, which docs/mcp.md documents for the
	// clients of consensus_check: kept for them.
	Record        string          `json:"record" jsonschema:"the active record's vault path, empty when none (the same as path)"`
	File          string          `json:"file,omitempty" jsonschema:"the active record's file"`
	Verdict       debate.Verdict  `json:"verdict,omitempty"`
	RecordTopic   string          `json:"record_topic,omitempty" jsonschema:"the matched record's topic (the same as topic)"`
	TopicScore    float64         `json:"topic_score" jsonschema:"how surely the record asks the same question, 0 to 1"`
	Score         float64         `json:"score" jsonschema:"how much content the positions share, 0 to 1"`
	Differences   []string        `json:"differences" jsonschema:"what changed from the filed position, e.g. 5 minutes → 10 minutes"`
	Judge         string          `json:"judge,omitempty" jsonschema:"the reason a model gave, when one decided"`
	Warnings      []string        `json:"warnings,omitempty"`
	FinalPosition string          `json:"final_position" jsonschema:"the position the record binds"`
	Position      string          `json:"position"`
	Related       []RelatedRecord `json:"related" jsonschema:"other records ranked by relevance"`
	Problem       string          `json:"problem,omitempty" jsonschema:"why a tampered record's seal fails"`
	Unsealed      string          `json:"unsealed,omitempty" jsonschema:"why the record's seal could not be checked"`

	// Check is the store's whole answer, for a front end that words it.
	Check *consensus.CheckResult `json:"-"`
}

// Blocks reports whether the position must not be taken: the check found
// a conflict or a tampered record, or could not tell (unclear) and the
// caller is not lenient. Consistent, open and none never block.
func (r *CheckResult) Blocks(lenient bool) bool {
	switch r.Status {
	case consensus.CheckConflict, consensus.CheckTampered:
		return true
	case consensus.CheckUnclear:
		return !lenient
	}
	return false
}

// RelatedRecord is a record related to a checked question.
type RelatedRecord struct {
	// Name and Path are the record's, as "consensus list --json" gives
	// them; Record is Path under its first, documented name.
	Name   string  `json:"name"`
	Path   string  `json:"path"`
	Record string  `json:"record" jsonschema:"the record's vault path (the same as path)"`
	Score  float64 `json:"score"`
	// TopicScore is how close the record came to being the question
	// asked, 0 when it was not scored.
	TopicScore float64 `json:"topic_score,omitempty" jsonschema:"how close the record came to asking the same question, 0 to 1"`
}

// Validate checks that in has every field and a layer that means
// something; what is wrong is an *Error.
func (in CheckInput) Validate() (debate.Layer, error) {
	// A refusal names what to add, not every input that is required.
	var missing []string
	for _, in := range []struct{ field, value string }{{"layer", in.Layer}, {"topic", in.Topic}, {"position", in.Position}} {
		if strings.TrimSpace(in.value) == "" {
			missing = append(missing, "{"+in.field+"}")
		}
	}
	if len(missing) > 0 {
		return "", newError(ProblemMissing, "", nil, "missing "+andList(missing))
	}
	l, err := debate.ParseLayer(in.Layer)
	if err != nil {
		return "", refuse(ProblemInvalid, "layer", err)
	}
	return l, nil
}

// Check finds the active record of in's question (by meaning, in its
// layer) and compares in.Position with the position it binds. A record
// that does not verify against its seal is CheckTampered. What the user
// must correct is an *Error.
func (c *Consensus) Check(ctx context.Context, in CheckInput) (*CheckResult, error) {
	l, err := in.Validate()
	if err != nil {
		return nil, err
	}
	res, err := c.s.Check(ctx, l, in.Topic, in.Position)
	if errors.Is(err, consensus.ErrEmptyQuestion) {
		return nil, refuse(ProblemInvalid, "", errors.New("position says nothing once normalized"))
	}
	if err != nil {
		return nil, err
	}
	out := &CheckResult{Status: res.Status, Position: in.Position, Related: []RelatedRecord{}, TopicScore: res.TopicScore,
		Score: res.Comparison.Score, Differences: res.Comparison.Differences, Judge: res.Judge, Warnings: res.Warnings,
		Problem: res.Problem, Unsealed: res.Unsealed, Check: res}
	if out.Differences == nil {
		out.Differences = []string{}
	}
	if res.Record != nil {
		out.File = c.File(res.Record)
		out.Record, out.Verdict, out.FinalPosition = res.Record.Path, res.Record.Verdict, res.Record.FinalPosition
		out.RecordTopic = res.Record.Topic
		out.Name, out.Path, out.Topic, out.DebateID = res.Record.Name, res.Record.Path, res.Record.Topic, res.Record.DebateID
	}
	for _, h := range res.Related {
		out.Related = append(out.Related, RelatedRecord{Name: h.Record.Name, Path: h.Record.Path, Record: h.Record.Path, Score: round3(h.Score), TopicScore: h.TopicScore})
	}
	return out, nil
}

// Filed is a record filed from a closed debate.
type Filed struct {
	DebateID string `json:"debate_id"`
	Record   string `json:"record"`
	File     string `json:"file"`
	// Status says what this filing did with the record: filed (written
	// now) or already_filed (it is there, and is left as it is).
	Status consensus.FileStatus `json:"status"`
	// Differs, of a record already filed, says how it differs from what
	// its debate filed and sealed (an edit by hand, a damaged file): the
	// audit's problem, as "parley transcripts verify" words it; "" when it
	// matches its seal. Filing never writes over it. A front end says so.
	Differs string `json:"differs,omitempty"`
	// OvertakenBy names the question's current record when this debate
	// started before that record's and so does not replace it: the record
	// is filed superseded by it (consensus.Filing.OvertakenBy).
	OvertakenBy string `json:"overtaken_by,omitempty"`
	// NotClosed says that the debate's own closing is still cut short (a
	// crash after its verdict, before verdict.json): its record is filed,
	// but its vault page, its seal and verdict.json wait for "parley
	// debate resume". A front end says so.
	NotClosed bool `json:"-"`
}

// OvertakenError says that a debate's record was filed superseded by its
// question's current record, because that record's debate started after
// this one (consensus.Record.OvertakenBy): a late verdict, from a debate
// resumed after a later debate of the question was filed, does not
// replace it. It is a warning, not a failure: the record is filed.
type OvertakenError struct {
	DebateID string
	Record   string // the record filed, a vault path
	By       string // the record that stays current, a record name
}

func (e *OvertakenError) Error() string {
	return fmt.Sprintf("debate %s started before the debate of [[%s]], which was filed first: [[%s]] stays the question's record, and %s is filed superseded by it",
		e.DebateID, e.By, e.By, e.Record)
}

// Warning is the OvertakenError of f, nil when its record is the
// question's current one.
func (f *Filed) Warning() error {
	if f.OvertakenBy == "" {
		return nil
	}
	return &OvertakenError{DebateID: f.DebateID, Record: f.Record, By: f.OvertakenBy}
}

// FileFrom files (again) the record of debate id, from its verified
// outcome: it repairs what an interrupted filing left in the records. A
// debate whose verdict is recorded but not sealed gets its record, and
// Filed.NotClosed: only resume closes it.
func (c *Consensus) FileFrom(ctx context.Context, id string) (*Filed, error) {
	if c.app == nil {
		return nil, errors.New("app: FileFrom needs a Consensus from App.OpenConsensus")
	}
	res, err := c.s.FileFrom(ctx, c.app, id)
	if err != nil {
		return nil, err
	}
	filed := &Filed{DebateID: id, Record: res.Path, File: filepath.Join(c.s.Vault().Path(), filepath.FromSlash(res.Path)), Status: res.Status, OvertakenBy: res.OvertakenBy}
	if st, err := c.app.OpenDebates(); err == nil {
		_, verr := st.Verdict(id)
		filed.NotClosed = errors.Is(verr, transcripts.ErrNotSealed)
		st.Close()
	}
	if filed.Status == consensus.FiledAlready && !filed.NotClosed {
		if v, err := c.app.VerifyTranscript(ctx, id); err == nil {
			for _, f := range v.Files {
				if f.File == res.Path && f.Status.Bad() {
					filed.Differs = f.Problem
				}
			}
		}
	}
	return filed, nil
}

// sealCheck checks, for Check, that a record's debate verifies against its
// seal and that the seal names this record.
type sealCheck struct {
	a  *App
	cs *consensus.Store
}

var _ consensus.SealChecker = sealCheck{}

func (c sealCheck) CheckSeal(ctx context.Context, r *consensus.Record) error {
	if r.DebateID == "" {
		return fmt.Errorf("%s names no debate: nothing binds it", r.Path)
	}
	st, err := c.a.OpenDebates()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: there is no parley root at %s", consensus.ErrNoSeal, c.a.root)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := c.a.Config()
	if err != nil {
		return err
	}
	w := transcripts.Witnesses{Vault: c.cs.Vault(), Records: c.cs, PublicKey: cfg.SealPublicKey()}
	t, err := st.Audit(ctx, r.DebateID, w)
	if errors.Is(err, debate.ErrInvalidID) {
		return fmt.Errorf("%s names %q, which is not a debate id", r.Path, r.DebateID)
	}
	if IsNoDebate(err) {
		return fmt.Errorf("%w: debate %s is not under %s", consensus.ErrNoSeal, r.DebateID, c.a.root)
	}
	if err != nil {
		return err
	}
	in := transcripts.IntegrityOf(t)
	if in.Tampered() {
		return errors.New(in.Trouble())
	}
	for _, f := range in.Files {
		// Pending: filed by "consensus file --from-debate" before the seal,
		// bound to the chain's verdict line by its head. With a public key
		// only a signed seal vouches: anyone who can write the files can
		// rewrite a debate and leave it looking interrupted, unsigned.
		if f.File == r.Path && f.Status == transcripts.FilePending && in.Signature == transcripts.SigNotSealed {
			return fmt.Errorf("debate %s is filed but not sealed yet, so no signature vouches for %s (%s seals and signs it)", r.DebateID, r.Path, c.a.CommandLine("debate", "resume", r.DebateID))
		}
		if f.File == r.Path && (f.Status == transcripts.FileIntact || f.Status == transcripts.FilePending) {
			return nil
		}
	}
	return fmt.Errorf("debate %s's seal does not vouch for %s (%s)", r.DebateID, r.Path, c.a.CommandLine("transcripts", "verify", r.DebateID))
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }
