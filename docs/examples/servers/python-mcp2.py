import re
from datetime import date

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("rail-booking")


@mcp.tool()
def book_train(origin: str, destination: str, day: str, seats: int = 1) -> str:
    """Book train seats. day must be YYYY-MM-DD."""
    # MCPServer validates the arguments against the signature and reports a mismatch as a
    # result with isError: true. Rules of your own: raise ToolError with a useful text,
    # MCPServer turns it into the same kind of result.
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        raise ToolError(f"day must be YYYY-MM-DD, got {day!r}")
    if date.fromisoformat(day) < date.today():
        raise ToolError(f"day {day} is in the past; today is {date.today().isoformat()}")
    return f"Booked {seats} seat(s) {origin}->{destination} on {day}"


if __name__ == "__main__":
    mcp.run()
