package main

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type ForecastArgs struct {
	City string `json:"city" jsonschema:"city name"`
	Days int    `json:"days,omitempty" jsonschema:"number of days, 1 to 7"`
}

func forecast(ctx context.Context, req *mcp.CallToolRequest, args ForecastArgs) (*mcp.CallToolResult, any, error) {
	// A range the schema above does not state: answer with a tool execution error.
	if args.Days < 0 || args.Days > 7 {
		return &mcp.CallToolResult{
			IsError: true,
			Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("days must be between 1 and 7, got %d", args.Days),
			}},
		}, nil, nil
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: args.City + ": 14°C, 12°C, 15°C"}},
	}, nil, nil
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather-go", Version: "v1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "forecast", Description: "Weather forecast for a city"}, forecast)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
