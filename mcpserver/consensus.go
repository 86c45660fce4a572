package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
)

// CheckInput is the input of consensus_check.
type CheckInput struct {
	Layer    string `json:"layer" jsonschema:"the question's layer: spec, plan or verify"`
	Topic    string `json:"topic" jsonschema:"the question's topic, as debates name it"`
	Position string `json:"position" jsonschema:"the position about to be taken"`
}

// CheckOutput is the result of consensus_check: exactly what
// "parley consensus check --json" prints. Status is consistent, conflict
// (the position contradicts the active record: do not proceed), unclear
// (parley cannot tell: do not take it for a pass), open (the record bound
// nothing) or none.
type CheckOutput struct {
	Status        consensus.CheckStatus `json:"status" jsonschema:"consistent, conflict (do not proceed), unclear (parley cannot tell: do not proceed without a person), open (the question is still open), tampered (the record does not verify against its debate's seal: do not proceed) or none"`
	Record        string                `json:"record" jsonschema:"the active record's vault path, empty when none"`
	File          string                `json:"file,omitempty" jsonschema:"the active record's file"`
	Verdict       debate.Verdict        `json:"verdict,omitempty"`
	RecordTopic   string                `json:"record_topic,omitempty" jsonschema:"the matched record's topic"`
	TopicScore    float64               `json:"topic_score" jsonschema:"how surely the record asks the same question, 0 to 1"`
	Score         float64               `json:"score" jsonschema:"how much content the positions share, 0 to 1"`
	Differences   []string              `json:"differences" jsonschema:"what changed from the filed position, e.g. 5 minutes → 10 minutes"`
	Judge         string                `json:"judge,omitempty" jsonschema:"the reason a model gave, when one decided"`
	Warnings      []string              `json:"warnings,omitempty"`
	FinalPosition string                `json:"final_position" jsonschema:"the position the record binds"`
	Position      string                `json:"position"`
	Related       []Related             `json:"related" jsonschema:"other records ranked by relevance"`
	Problem       string                `json:"problem,omitempty" jsonschema:"why a tampered record's seal fails"`
	Unsealed      string                `json:"unsealed,omitempty" jsonschema:"why the record's seal could not be checked"`
}

// Related is a related record of a check.
type Related struct {
	Record string  `json:"record"`
	Score  float64 `json:"score"`
}

// SearchInput is the input of consensus_search.
type SearchInput struct {
	Query   string `json:"query" jsonschema:"words to look for in topics, positions and rationales"`
	Layer   string `json:"layer,omitempty" jsonschema:"only this layer: spec, plan or verify"`
	Verdict string `json:"verdict,omitempty" jsonschema:"only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT"`
	Status  string `json:"status,omitempty" jsonschema:"only this status: active or superseded"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
}

// SearchOutput is the result of consensus_search, best first.
type SearchOutput struct {
	Results []SearchHit `json:"results"`
}

// SearchHit is one ranked record (the line "consensus search --json"
// prints).
type SearchHit struct {
	consensus.Record
	Score float64 `json:"score"`
}

// ShowInput is the input of consensus_show.
type ShowInput struct {
	Name string `json:"name" jsonschema:"a record's name (spec-x), file name, wikilink or the id of the debate it records"`
}

// ShowOutput is the result of consensus_show ("consensus show --json").
type ShowOutput struct {
	consensus.Record
	File string `json:"file"`
	Body string `json:"body" jsonschema:"the record's Markdown after its frontmatter"`
}

func (s *Server) addConsensusTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "consensus_check",
		Title: "Check a position against the filed consensus",
		Description: "Before deciding, check whether a filed consensus settles the question (layer and topic). " +
			"status conflict: the position contradicts the active record, do not take it (the CLI exits 3); " +
			"consistent: it agrees; open: the record bound nothing (DEADLOCK, TIMEOUT, budget without agreement); " +
			"none: nothing filed. Positions are compared ignoring case, spacing and trailing punctuation.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusCheck)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "consensus_search",
		Title:       "Search the consensus records",
		Description: "Rank the filed consensus records by relevance to a query (BM25 over topic, positions and rationale).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusSearch)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "consensus_show",
		Title:       "Show a consensus record",
		Description: "Read one consensus record: its fields and its Markdown body.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusShow)
}

func (s *Server) consensusCheck(ctx context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	var out CheckOutput
	if in.Layer == "" || strings.TrimSpace(in.Topic) == "" || strings.TrimSpace(in.Position) == "" {
		return nil, out, invalidf("consensus_check needs layer, topic and position")
	}
	l, err := debate.ParseLayer(in.Layer)
	if err != nil {
		return nil, out, invalidf("layer: %w", err)
	}
	for _, f := range []struct{ name, v string }{{"topic", in.Topic}, {"position", in.Position}} {
		if err := checkSize(f.name, f.v); err != nil {
			return nil, out, err
		}
	}
	cs := s.cfg.Consensus
	res, err := cs.Check(ctx, l, in.Topic, in.Position)
	if errors.Is(err, consensus.ErrEmptyQuestion) {
		return nil, out, invalidf("position says nothing once normalized")
	}
	if err != nil {
		return nil, out, err
	}
	out = CheckOutput{Status: res.Status, Position: in.Position, Related: []Related{}, TopicScore: res.TopicScore,
		Score: res.Comparison.Score, Differences: res.Comparison.Differences, Judge: res.Judge, Warnings: res.Warnings,
		Problem: res.Problem, Unsealed: res.Unsealed}
	if out.Differences == nil {
		out.Differences = []string{}
	}
	if res.Record != nil {
		out.File = s.recordFile(res.Record)
		out.Record, out.Verdict, out.FinalPosition = res.Record.Path, res.Record.Verdict, res.Record.FinalPosition
		out.RecordTopic = res.Record.Topic
	}
	for _, h := range res.Related {
		out.Related = append(out.Related, Related{Record: h.Record.Path, Score: round3(h.Score)})
	}
	return nil, out, nil
}

func (s *Server) recordFile(r *consensus.Record) string {
	return filepath.Join(s.cfg.Consensus.Vault().Path(), filepath.FromSlash(r.Path))
}

// filter reads the optional layer, verdict and status filters.
func filter(layer, verdict, status string) (consensus.Filter, error) {
	var f consensus.Filter
	var err error
	if layer != "" {
		if f.Layer, err = debate.ParseLayer(layer); err != nil {
			return f, invalidf("layer: %w", err)
		}
	}
	if verdict != "" {
		if f.Verdict, err = debate.ParseVerdict(verdict); err != nil {
			return f, invalidf("verdict: %w", err)
		}
	}
	if status != "" {
		if f.Status, err = consensus.ParseStatus(status); err != nil {
			return f, invalidf("status: %w", err)
		}
	}
	return f, nil
}

func (s *Server) consensusSearch(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	out := SearchOutput{Results: []SearchHit{}}
	if strings.TrimSpace(in.Query) == "" {
		return nil, out, invalidf("consensus_search needs a query")
	}
	if err := checkSize("query", in.Query); err != nil {
		return nil, out, err
	}
	f, err := filter(in.Layer, in.Verdict, in.Status)
	if err != nil {
		return nil, out, err
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = 10
	case limit < 1:
		return nil, out, invalidf("limit must be at least 1")
	}
	hits, err := s.cfg.Consensus.Search(ctx, in.Query, f, limit)
	if err != nil {
		return nil, out, err
	}
	for _, h := range hits {
		out.Results = append(out.Results, SearchHit{Record: h.Record, Score: round3(h.Score)})
	}
	return nil, out, nil
}

func (s *Server) consensusShow(ctx context.Context, _ *mcp.CallToolRequest, in ShowInput) (*mcp.CallToolResult, ShowOutput, error) {
	var out ShowOutput
	if strings.TrimSpace(in.Name) == "" {
		return nil, out, invalidf("consensus_show needs a name")
	}
	if err := checkSize("name", in.Name); err != nil {
		return nil, out, err
	}
	r, page, err := s.cfg.Consensus.Record(ctx, in.Name)
	if errors.Is(err, consensus.ErrNoRecord) {
		return nil, out, fmt.Errorf("%w (see consensus_search, or the parley://consensus/ resources)", err)
	}
	if err != nil {
		return nil, out, err
	}
	out = ShowOutput{Record: *r, File: s.recordFile(r), Body: string(page.Body)}
	return textResult(out.Body), out, nil
}

// textResult is a result whose content is text (Markdown) rather than the
// JSON of the structured output.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }
