pip install mcp-migrate

mcp-migrate check traces/          # list the responses that need a look
mcp-migrate fix --diff traces/     # show the rewrite, write nothing
mcp-migrate fix traces/            # rewrite the files in place
