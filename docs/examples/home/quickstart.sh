pip install mcp-transcripts

mcp-transcripts check traces/          # list the responses that need a look
mcp-transcripts fix --diff traces/     # show the rewrite, write nothing
mcp-transcripts fix traces/            # rewrite the files in place
