package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
)

// CheckInput is the input of consensus_check.
type CheckInput struct {
	Layer    string `json:"layer" jsonschema:"the question's layer: spec, plan or verify"`
	Topic    string `json:"topic" jsonschema:"the question's topic, as debates name it"`
	Position string `json:"position" jsonschema:"the position about to be taken"`
}

// CheckOutput is the result of consensus_check: exactly what
// "parley consensus check --json" prints (app.CheckResult). Status is
// consistent, conflict (the position contradicts the active record: do
// not proceed), unclear (parley cannot tell: do not take it for a pass),
// open (the record bound nothing), tampered or none.
type CheckOutput = app.CheckResult

// Related is a related record of a check.
type Related = app.RelatedRecord

// SearchInput is the input of consensus_search.
type SearchInput struct {
	Query   string `json:"query" jsonschema:"words to look for in topics, positions and rationales"`
	Layer   string `json:"layer,omitempty" jsonschema:"only this layer: spec, plan or verify"`
	Verdict string `json:"verdict,omitempty" jsonschema:"only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT"`
	Status  string `json:"status,omitempty" jsonschema:"only this status: active or superseded"`
	Limit   *int   `json:"limit,omitempty" jsonschema:"at most this many results, 1 or more (default 10)"`
}

// SearchOutput is the result of consensus_search, best first.
type SearchOutput struct {
	Results []SearchHit `json:"results"`
}

// SearchHit is one ranked record (the line "consensus search --json"
// prints).
type SearchHit = app.SearchHit

// ShowInput is the input of consensus_show.
type ShowInput struct {
	Name string `json:"name" jsonschema:"a record's name (spec-x), file name, wikilink or the id of the debate it records, or a unique prefix of a name or an id"`
}

// ShowOutput is the result of consensus_show ("consensus show --json").
type ShowOutput = app.RecordPage

func (s *Server) addConsensusTools() {
	addTool(s, &mcp.Tool{
		Name:  "consensus_check",
		Title: "Check a position against the filed consensus",
		Description: "Before deciding, check whether a filed consensus settles the question (layer and topic). " +
			"status conflict: the position contradicts the active record, do not take it; " +
			"unclear: parley cannot tell whether it agrees, do not take it for a pass (read the record, or ask a person); " +
			"tampered: the record does not verify against its debate's seal, do not rely on it (problem says why); " +
			"on these three the CLI exits 3. " +
			"consistent: it agrees; open: the record bound nothing (DEADLOCK, TIMEOUT, budget without agreement); " +
			"none: nothing filed. Positions are compared by meaning: numbers with units, negation, the options named, conditions.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusCheck)
	addTool(s, &mcp.Tool{
		Name:        "consensus_search",
		Title:       "Search the consensus records",
		Description: "Rank the filed consensus records by relevance to a query (BM25 over topic, positions and rationale).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusSearch)
	addTool(s, &mcp.Tool{
		Name:        "consensus_show",
		Title:       "Show a consensus record",
		Description: "Read one consensus record: its fields and its Markdown body.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.consensusShow)
}

// consensus is the service layer's operations over the server's store.
func (s *Server) consensus() *app.Consensus { return app.ConsensusOf(s.cfg.Consensus) }

func (s *Server) consensusCheck(ctx context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	var out CheckOutput
	if in.Layer == "" || strings.TrimSpace(in.Topic) == "" || strings.TrimSpace(in.Position) == "" {
		return nil, out, invalidf("consensus_check needs layer, topic and position")
	}
	for _, f := range []struct{ name, v string }{{"topic", in.Topic}, {"position", in.Position}} {
		if err := checkSize(f.name, f.v); err != nil {
			return nil, out, err
		}
	}
	res, err := s.consensus().Check(ctx, app.CheckInput{Layer: in.Layer, Topic: in.Topic, Position: in.Position})
	if err != nil {
		return nil, out, s.toolError(err)
	}
	return nil, *res, nil
}

func (s *Server) consensusSearch(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	out := SearchOutput{Results: []SearchHit{}}
	if strings.TrimSpace(in.Query) == "" {
		return nil, out, invalidf("consensus_search needs a query")
	}
	if err := checkSize("query", in.Query); err != nil {
		return nil, out, err
	}
	q := app.SearchInput{Query: in.Query, RecordQuery: app.RecordQuery{Layer: in.Layer, Verdict: in.Verdict, Status: in.Status}, Limit: 10}
	if in.Limit != nil {
		q.Limit = *in.Limit // 0 is refused, as the command line's --limit 0 is
	}
	hits, err := s.consensus().Search(ctx, q)
	if err != nil {
		return nil, out, s.toolError(err)
	}
	out.Results = append(out.Results, hits...)
	if s.cfg.Untrusted {
		for i := range out.Results {
			out.Results[i].EvidenceLines = nil
		}
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
	p, err := s.consensus().Show(ctx, in.Name)
	if errors.Is(err, consensus.ErrNoRecord) {
		return nil, out, fmt.Errorf("%w (see consensus_search, or the parley://consensus/ resources)", err)
	}
	if err != nil {
		return nil, out, s.toolError(err)
	}
	if s.cfg.Untrusted {
		body, err := consensus.RedactEvidence([]byte(p.Body))
		if err != nil {
			return nil, out, err
		}
		p.Body, p.EvidenceLines = string(body), nil
	}
	return textResult(p.Body), *p, nil
}

// textResult is a result whose content is text (Markdown) rather than the
// JSON of the structured output.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
