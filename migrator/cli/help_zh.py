"""The Chinese help of the command line: each English text ``--help`` shows, and its translation.

The keys are the English texts exactly as the code writes them (a paragraph of a
description or an epilog, an argument's help, an exit-code meaning), so a changed text
or a new option has no entry until one is written here, and
``tests/test_cli_translations.py`` fails until then. :mod:`migrator.cli.translations`
applies them; the Chinese CLI reference of the site is rendered from them.

Descriptions and epilogs are laid out by hand, as their English is: lines of at most 88
columns, a Chinese character taking two. Example command lines stay as they are.
"""

from __future__ import annotations

# The heading of the epilog's exit-code paragraph; its lines come from the exit-code table.
EXIT_CODES_HEADING = "退出码（完整的表见命令行参考）："

TEXTS: dict[str, str] = {
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "show this help message and exit": "显示此帮助信息并退出",
    "show program's version number and exit": "显示程序的版本号并退出",
    (
        "Find and fix MCP tools/call input-validation errors that are still sent as\n"
        "JSON-RPC protocol errors (SEP-1303, protocol 2025-11-25), in recorded transcripts."
    ): (
        "在录制的记录中，查找并修复仍以 JSON-RPC 协议错误发送的 MCP tools/call 输入验证错误\n"
        "（SEP-1303，协议 2025-11-25）。"
    ),
    (
        "examples:\n"
        "  mcp-transcripts check traces/\n"
        "  mcp-transcripts fix --diff traces/session.jsonl\n"
        "  mcp-transcripts fix traces/\n"
        "  mcp-transcripts explain MCP101"
    ): (
        "示例：\n"
        "  mcp-transcripts check traces/\n"
        "  mcp-transcripts fix --diff traces/session.jsonl\n"
        "  mcp-transcripts fix traces/\n"
        "  mcp-transcripts explain MCP101"
    ),
    "report findings": "报告发现",
    "rewrite files in place (atomically)": "原地改写文件（原子操作）",
    "list the rules": "列出规则",
    "explain one rule": "解释一条规则",
    "fetch the official MCP schemas (for --mcp-schema cached)": "获取官方 MCP schema（供 --mcp-schema cached 使用）",
    "run a stdio or Streamable HTTP server behind a transparent proxy and record its traffic": "在透明代理后面运行 stdio 或 Streamable HTTP 服务器，并录制其流量",
    "run a stdio or Streamable HTTP server behind a proxy that fixes its answers live": "在代理后面运行 stdio 或 Streamable HTTP 服务器，在线修复其应答",
    "call a live server's tools with invalid arguments and judge its answers (SEP-1303)": "用无效参数调用在线服务器的工具，并判定其应答（SEP-1303）",
    "per server: migrated, not migrated, mixed or no evidence": "按服务器给出：已迁移、未迁移、混合或无证据",
    "Report every finding, sorted, one per line (or in another output format).": "报告每一条发现，排好序，每行一条（或使用其他输出格式）。",
    (
        "output formats:\n"
        "  text    path:line:col: CODE message (coloured on a terminal; NO_COLOR, FORCE_COLOR)\n"
        "  json    one document (schemas/findings.schema.json)\n"
        "  jsonl   one finding per line\n"
        "  github  GitHub Actions annotations\n"
        "  sarif   SARIF 2.1.0 (GitHub code scanning)\n"
        "  junit   JUnit XML\n"
        "  gitlab  GitLab Code Quality\n"
        "  auto    github under GitHub Actions, else text"
    ): (
        "输出格式：\n"
        "  text    path:line:col: CODE message（在终端上着色；NO_COLOR、FORCE_COLOR）\n"
        "  json    一个文档（schemas/findings.schema.json）\n"
        "  jsonl   每行一条发现\n"
        "  github  GitHub Actions 注解\n"
        "  sarif   SARIF 2.1.0（GitHub 代码扫描）\n"
        "  junit   JUnit XML\n"
        "  gitlab  GitLab Code Quality\n"
        "  auto    在 GitHub Actions 中为 github，否则为 text"
    ),
    (
        "baselines:\n"
        "  mcp-transcripts check --write-baseline mcp-baseline.json traces/   # accept today's findings\n"
        "  mcp-transcripts check --baseline mcp-baseline.json traces/         # fail on new or stale ones"
    ): (
        "基线：\n"
        "  mcp-transcripts check --write-baseline mcp-baseline.json traces/   # 接受今天的发现\n"
        "  mcp-transcripts check --baseline mcp-baseline.json traces/         # 有新的或过时的条目时失败"
    ),
    "transcript files or folders (walked for *.jsonl, *.ndjson, *.jsonlines, *.json, *.txtar, *.har, *.log, mcp*.log, *.yaml, *.yml files that hold MCP traffic, each also gzip-compressed as .gz); '-' reads stdin": "记录文件或文件夹（遍历其中含 MCP 流量的 *.jsonl、*.ndjson、*.jsonlines、*.json、*.txtar、*.har、*.log、mcp*.log、*.yaml、*.yml 文件，各自也可以是 gzip 压缩的 .gz）；'-' 读取标准输入",
    "the transcript format (default: detected from the content)": "记录的格式（默认：从内容检测）",
    "only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)": "只运行这些规则：代码、slug 或 MCP1 这样的前缀，用逗号分隔（可重复）",
    "skip these rules (comma-separated, repeatable)": "跳过这些规则（用逗号分隔，可重复）",
    "protocol version for sessions without an initialize handshake, e.g. 2025-11-25": "没有 initialize 握手的会话所用的协议版本，例如 2025-11-25",
    "the path to report for '-'": "为 '-' 报告的路径",
    "the configuration file (default: the nearest .mcp-transcripts.yaml, or pyproject.toml with [tool.mcp-transcripts], from the current folder up)": "配置文件（默认：从当前文件夹向上最近的 .mcp-transcripts.yaml，或带有 [tool.mcp-transcripts] 的 pyproject.toml）",
    "a two-file stdio capture: what the client wrote and what the server wrote, merged by time or causality; either may be an object's URL, as PATH may (repeatable; fix rewrites only S2C_FILE, and never an object)": "分成两个文件的 stdio 抓包：客户端写的和服务器写的，按时间或因果关系合并；和 PATH 一样，两者都可以是对象的 URL（可重复；fix 只改写 S2C_FILE，从不改写对象）",
    "worker processes, or auto: files run in parallel, and one large wire transcript is cut at its session starts into stretches that run in parallel (auto, the default: one per core when there are several files and over 16 MB to read, or one wire transcript of 64 MB or more; else 1)": "工作进程数，或 auto：多个文件并行处理，一个大的线路记录在各会话开始处切成几段并行处理（auto 为默认值：有多个文件且要读的内容超过 16 MB 时，或只有一个 64 MB 及以上的线路记录时，每个 CPU 核一个进程；否则为 1）",
    "a keyword argument of the fsspec file system that reads PATHs given as URLs (s3://, gs://, az://, abfs://, http(s)://; the cloud extra), e.g. endpoint_url=http://127.0.0.1:9000 or anon=true; VALUE is read as JSON where it is JSON (repeatable)": "读取以 URL 给出的 PATH（s3://、gs://、az://、abfs://、http(s)://；需要 cloud 附加组件）的 fsspec 文件系统的一个关键字参数，例如 endpoint_url=http://127.0.0.1:9000 或 anon=true；VALUE 是 JSON 时按 JSON 读取（可重复）",
    "run the files on the dask.distributed cluster whose scheduler is at ADDRESS (tcp://host:8786; the dask extra): a task per file or object, a large one cut at its session starts; results come in the order of a local run, a failed task is retried and then reported": "在调度器位于 ADDRESS（tcp://host:8786；需要 dask 附加组件）的 dask.distributed 集群上处理这些文件：每个文件或对象一个任务，大的在各会话开始处切开；结果的顺序与本地运行相同，失败的任务会重试，之后再报告",
    "no summary line": "不输出摘要行",
    "also say which configuration is used, and for each file its format, messages and findings": "另外说明使用了哪个配置，以及每个文件的格式、消息和发现",
    "how to print findings (default: text)": "如何输出发现（默认：text）",
    "lowest severity that makes the exit code 1 (default: warning)": "使退出码为 1 的最低严重级别（默认：warning）",
    "print the evidence behind each finding under it": "在每条发现下面输出其依据",
    "validate every message against an official MCP schema.json (MCP206); its version comes from its folder name (.../2025-11-25/schema.json); 'cached' uses every schema fetched with `mcp-transcripts schema fetch` (repeatable)": "用一个官方 MCP schema.json 验证每条消息（MCP206）；其版本取自所在文件夹的名字（.../2025-11-25/schema.json）；'cached' 使用 `mcp-transcripts schema fetch` 获取的所有 schema（可重复）",
    "report only findings not in this baseline; exit 1 if some of its entries no longer occur": "只报告不在此基线中的发现；基线中有条目不再出现时退出码为 1",
    "record the findings in this baseline file and exit 0": "把这些发现记录到此基线文件中，退出码为 0",
    "Rewrite what the rules can fix; every other byte stays as it was.": "改写规则能修复的内容；其余每个字节都保持原样。",
    "print a unified diff instead of writing; exit 1 if anything would change": "输出统一格式的差异而不写入；有任何改动时退出码为 1",
    "also apply unsafe fixes (MCP102, MCP103, MCP104)": "也应用不安全的修复（MCP102、MCP103、MCP104）",
    'do not keep the original under _meta["io.github.mcp-transcripts/original-error"]': '不在 _meta["io.github.mcp-transcripts/original-error"] 下保留原文',
    "keep each original next to its rewrite, as PATH + SUFFIX (e.g. .orig)": "在每个改写后的文件旁保留原文件，名为 PATH + SUFFIX（例如 .orig）",
    "write the fixed copies into this folder (or under this URL prefix), each at its place below the folder or prefix it was found in; the originals are only read. Only files that change are written, whole, once validated (gzip input gets a gzip copy). Needed to fix objects at URLs, which are never rewritten in place": "把修复后的副本写入这个文件夹（或这个 URL 前缀之下），每个副本位于它在原文件夹或前缀下的相同位置；原文件只读不写。只写出有改动的文件，在验证通过后整体写出（gzip 输入得到 gzip 副本）。修复 URL 上的对象时必须给出，对象从不就地改写",
    "List every rule with its code, slug, default severity and fix.": "列出每条规则的代码、slug、默认严重级别和修复。",
    "text (default) or json": "text（默认）或 json",
    "Print a rule's page: what it does, why, an example (the After is what fix writes), the fix and its safety, options, related rules, known limits, and the page's web address.": "输出一条规则的页面：它做什么、为什么、一个示例（After 就是 fix 写出的内容）、修复及其安全性、选项、相关规则、已知局限，以及该页面的网址。",
    "a rule code (MCP101) or slug": "规则代码（MCP101）或 slug",
    "Download an official MCP schema.json (pinned specification commit, verified sha256) into the user cache folder, for full-surface validation with `check --mcp-schema cached` (MCP206).": "把官方 MCP schema.json（固定的规范提交，已验证 sha256）下载到用户缓存文件夹，供 `check --mcp-schema cached` 做全面验证（MCP206）。",
    (
        "examples:\n"
        "  mcp-transcripts schema fetch 2025-11-25\n"
        "  mcp-transcripts schema list\n"
        "  mcp-transcripts check --mcp-schema cached traces/"
    ): (
        "示例：\n"
        "  mcp-transcripts schema fetch 2025-11-25\n"
        "  mcp-transcripts schema list\n"
        "  mcp-transcripts check --mcp-schema cached traces/"
    ),
    "download and verify one version's schema": "下载并验证一个版本的 schema",
    "list the cached schemas": "列出已缓存的 schema",
    "a protocol version: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28": "协议版本：2024-11-05、2025-03-26、2025-06-18、2025-11-25、2026-07-28",
    "download from here instead ({version} is filled in)": "改从这里下载（会填入 {version}）",
    "expected checksum (required for versions without a pinned one)": "预期的校验和（没有固定校验和的版本必须给出）",
    (
        "Start the server, pass every line both ways unchanged, and append each line to FILE\n"
        "as it passes (flushed line by line, so a crash keeps everything up to it)."
    ): (
        "启动服务器，双向原样传递每一行，并在每一行经过时把它追加到 FILE\n"
        "（逐行刷新，因此崩溃时已经过的内容都会保留）。"
    ),
    (
        "The client starts this command instead of the server; everything after -- is the\n"
        'server\'s own command line. Our diagnostics go to stderr prefixed "mcp-transcripts:",\n'
        "next to the server's own stderr."
    ): (
        "客户端启动的是这个命令而不是服务器；-- 之后的一切都是服务器自己的命令行。\n"
        '我们的诊断信息写到标准错误，前缀为 "mcp-transcripts:"，与服务器自己的标准错误并列。'
    ),
    (
        "exit codes:\n"
        "  the server's exit code (128 + N when signal N ended it); 2 when the server\n"
        "  cannot be started or the command line is wrong"
    ): (
        "退出码：\n"
        "  服务器的退出码（服务器被信号 N 结束时为 128 + N）；服务器无法启动或命令行有误时为 2"
    ),
    (
        "With --url URL the server is a Streamable HTTP endpoint instead: the command\n"
        "listens on --listen (loopback, a free port, by default), prints the local URL\n"
        "(the upstream's path on the local address) and runs until Ctrl-C. Point the\n"
        "client at the printed URL. Needs the HTTP extra: pip install 'mcp-transcripts[http]'. Over HTTP the recording is always envelope JSONL, with the HTTP method,\n"
        "status and session id of each message."
    ): (
        "使用 --url URL 时，服务器改为一个 Streamable HTTP 端点：命令在 --listen 上监听\n"
        "（默认为回环地址、一个空闲端口），输出本地 URL（上游的路径加上本地地址），\n"
        "一直运行到 Ctrl-C。让客户端连接输出的 URL。需要 HTTP 附加依赖：\n"
        "pip install 'mcp-transcripts[http]'。通过 HTTP 时，录制的总是信封 JSONL，\n"
        "带有每条消息的 HTTP 方法、状态码和会话 ID。"
    ),
    (
        "examples:\n"
        "  mcp-transcripts record --out session.jsonl -- node server.js\n"
        "  mcp-transcripts record --url https://mcp.example.com/mcp --listen 127.0.0.1:9100 --out session.jsonl"
    ): (
        "示例：\n"
        "  mcp-transcripts record --out session.jsonl -- node server.js\n"
        "  mcp-transcripts record --url https://mcp.example.com/mcp --listen 127.0.0.1:9100 --out session.jsonl"
    ),
    "the recording (created or truncated): wire JSONL, one message per line": "录制文件（新建或截断）：线路 JSONL，每行一条消息",
    'write {"ts", "direction", "message"} lines instead; the message is embedded byte for byte': '改为写 {"ts", "direction", "message"} 行；消息逐字节原样嵌入',
    "the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp": "服务器的 Streamable HTTP 端点，例如 https://mcp.example.com/mcp",
    "where to listen (default 127.0.0.1:0: loopback, a free port); an address other than loopback prints a warning": "在哪里监听（默认 127.0.0.1:0：回环地址、一个空闲端口）；回环以外的地址会输出警告",
    "also write the original traffic as HAR 1.2 to FILE when stopped": "停止时另外把原始流量以 HAR 1.2 写到 FILE",
    "keep Authorization, cookies and other credential headers in the HAR file": "在 HAR 文件中保留 Authorization、cookie 和其他凭据头",
    "how long to wait for the upstream to begin its answer (default 60); then the client gets 504": "等待上游开始应答的时长（默认 60）；超时后客户端收到 504",
    "the server's command line, after --": "服务器的命令行，写在 -- 之后",
    (
        "Start the server and pass every line both ways; answers the rules can fix\n"
        "(input validation errors sent as JSON-RPC errors) reach the client rewritten\n"
        "as tool results with isError: true. Everything else passes byte for byte."
    ): (
        "启动服务器，双向传递每一行；规则能修复的应答（以 JSON-RPC 错误发送的输入验证错误）\n"
        "改写为带 isError: true 的工具结果后再到达客户端。其余一切逐字节原样传递。"
    ),
    (
        "With --url URL the server is a Streamable HTTP endpoint instead: the command\n"
        "listens on --listen (loopback, a free port, by default), prints the local URL\n"
        "(the upstream's path on the local address) and runs until Ctrl-C. Point the\n"
        "client at the printed URL. Needs the HTTP extra: pip install 'mcp-transcripts[http]'."
    ): (
        "使用 --url URL 时，服务器改为一个 Streamable HTTP 端点：命令在 --listen 上监听\n"
        "（默认为回环地址、一个空闲端口），输出本地 URL（上游的路径加上本地地址），\n"
        "一直运行到 Ctrl-C。让客户端连接输出的 URL。需要 HTTP 附加依赖：\n"
        "pip install 'mcp-transcripts[http]'。"
    ),
    (
        "examples:\n"
        "  mcp-transcripts proxy --record session.jsonl -- node server.js\n"
        "  mcp-transcripts proxy --url http://127.0.0.1:9000/mcp --listen 127.0.0.1:9100"
    ): (
        "示例：\n"
        "  mcp-transcripts proxy --record session.jsonl -- node server.js\n"
        "  mcp-transcripts proxy --url http://127.0.0.1:9000/mcp --listen 127.0.0.1:9100"
    ),
    "also record the ORIGINAL traffic (before any rewrite) to FILE, as wire JSONL (envelope JSONL with HTTP metadata for --url)": "另外把原始流量（任何改写之前）以线路 JSONL 录制到 FILE（对 --url 则为带 HTTP 元数据的信封 JSONL）",
    "protocol version for a session without an initialize handshake, e.g. 2025-11-25": "没有 initialize 握手的会话所用的协议版本，例如 2025-11-25",
    "do not log each finding and the closing summary to stderr": "不在标准错误中记录每条发现和结束时的摘要",
    (
        "Start a stdio server (or connect to a Streamable HTTP one), list its tools, call each\n"
        "with arguments its inputSchema rejects, and report how it answers: an isError result\n"
        "(migrated), a -32602 error (MCP101), another error (MCP502), a success (MCP501), a crash\n"
        "(MCP503) or no answer (MCP504). `check` on its recording (--out) finds the same,\n"
        "but for crashes and silences, which a transcript cannot show."
    ): (
        "启动一个 stdio 服务器（或连接一个 Streamable HTTP 服务器），列出其工具，用其 inputSchema\n"
        "拒绝的参数调用每个工具，并报告它如何应答：isError 结果（已迁移）、-32602 错误（MCP101）、\n"
        "其他错误（MCP502）、成功（MCP501）、崩溃（MCP503）或没有应答（MCP504）。对其录制（--out）\n"
        "运行 `check` 会得到相同的结果，只是记录无法表现崩溃和无应答。"
    ),
    (
        "Every call the probe makes has arguments the tool's own inputSchema rejects (checked with\n"
        "the schema's dialect before sending). A server that does not validate runs its handler\n"
        "with them: probe a test instance, not production. Tools marked destructiveHint: true are\n"
        "skipped unless --include-destructive."
    ): (
        "探测发出的每个调用，其参数都会被该工具自己的 inputSchema 拒绝（发送前按 schema 的方言检查）。\n"
        "不做验证的服务器会用这些参数运行其处理函数：请探测测试实例，不要探测生产环境。标注为\n"
        "destructiveHint: true 的工具会被跳过，除非给出 --include-destructive。"
    ),
    (
        "examples:\n"
        "  mcp-transcripts probe -- node build/server.js\n"
        '  mcp-transcripts probe --url http://127.0.0.1:9000/mcp --header "Authorization: Bearer $TOKEN"\n'
        "  mcp-transcripts probe --out probe.jsonl --output-format sarif -- uv run server.py"
    ): (
        "示例：\n"
        "  mcp-transcripts probe -- node build/server.js\n"
        '  mcp-transcripts probe --url http://127.0.0.1:9000/mcp --header "Authorization: Bearer $TOKEN"\n'
        "  mcp-transcripts probe --out probe.jsonl --output-format sarif -- uv run server.py"
    ),
    (
        "exit codes:\n"
        "  0 no finding at or above --fail-on; 1 findings at or above it; 2 the server could not be\n"
        "  started, initialized or listed, or the command line is wrong"
    ): (
        "退出码：\n"
        "  0 没有达到 --fail-on 及以上的发现；1 有达到它及以上的发现；2 服务器无法启动、初始化或\n"
        "  列出工具，或命令行有误"
    ),
    "probe a Streamable HTTP server at this MCP endpoint instead of starting one": "探测此 MCP 端点上的 Streamable HTTP 服务器，而不是启动一个服务器",
    "an HTTP header for every request (credentials); never recorded (repeatable)": "每个请求都带的 HTTP 头（凭据）；从不录制（可重复）",
    "the protocol version to ask for in initialize (default: the newest known)": "initialize 中请求的协议版本（默认：已知的最新版本）",
    "probe only tools whose name matches (repeatable)": "只探测名字匹配的工具（可重复）",
    "leave out tools whose name matches (repeatable)": "排除名字匹配的工具（可重复）",
    "also probe tools annotated destructiveHint: true": "也探测标注为 destructiveHint: true 的工具",
    "at most N cases per tool": "每个工具最多 N 个用例",
    "how long to wait for each answer (default: 10)": "等待每个应答的时长（默认：10）",
    "calls in flight at once (default: 1, one after another)": "同时进行的调用数（默认：1，一个接一个）",
    "also send values that break only a `format` (never counted as accepted)": "也发送只违反 `format` 的值（从不算作被接受）",
    "do not call a tool the server did not list": "不调用服务器没有列出的工具",
    "record the whole session to FILE (wire JSONL; check and fix read it)": "把整个会话录制到 FILE（线路 JSONL；check 和 fix 都能读）",
    'with --out: write {"ts", "direction", "message"} lines': '与 --out 一起使用：写 {"ts", "direction", "message"} 行',
    "how to print findings (default: text, after the table)": "如何输出发现（默认：text，在表格之后）",
    "Read everything `check` reads and say, per server, whether it answers tools/call arguments that fail validation the SEP-1303 way (isError results) or the old way (JSON-RPC errors), with counts, tools, first and last seen, the SDK where its wording tells, one example of each answer and what to do.": "读取 `check` 所读的一切，按服务器说明它对未通过验证的 tools/call 参数的应答方式是 SEP-1303 的方式（isError 结果）还是旧方式（JSON-RPC 错误），并给出计数、工具、首次和最后出现时间、从措辞能看出时的 SDK、每种应答的一个示例以及该怎么做。",
    (
        "verdicts (per server, from every tools/call whose arguments failed validation):\n"
        "  migrated      answered with tool results that have isError: true (SEP-1303)\n"
        "  not-migrated  answered with JSON-RPC errors (-32602, or -32603 with a validation dump)\n"
        "  mixed         both seen: the report lists where\n"
        "  no-evidence   no invalid call seen; `mcp-transcripts probe` would tell"
    ): (
        "判定（按服务器，依据每个参数未通过验证的 tools/call）：\n"
        "  migrated      以带 isError: true 的工具结果应答（SEP-1303）\n"
        "  not-migrated  以 JSON-RPC 错误应答（-32602，或带验证信息转储的 -32603）\n"
        "  mixed         两种都见到：报告会列出位置\n"
        "  no-evidence   没有见到无效调用；`mcp-transcripts probe` 可以判断"
    ),
    (
        "servers are named by serverInfo (name and version) of the initialize result; in a trace by\n"
        "the server span's service (or the address a client span names); otherwise by the file."
    ): (
        "服务器按 initialize 结果中的 serverInfo（名字和版本）命名；在链路追踪中按服务器 span 的\n"
        "服务名（或客户端 span 所写的地址）命名；否则按文件命名。"
    ),
    (
        "output formats:\n"
        "  text      a table, then an example and what to do for each server that needs work\n"
        "  json      one document (schemas/report.schema.json); keep it for --compare next time\n"
        "  markdown  GitHub-flavoured; also appended to $GITHUB_STEP_SUMMARY when that is set\n"
        "  html      one self-contained page (inline CSS and SVG, no network): use --output FILE"
    ): (
        "输出格式：\n"
        "  text      一张表格，然后对每个需要处理的服务器给出一个示例和该怎么做\n"
        "  json      一个文档（schemas/report.schema.json）；保存下来供下次 --compare 使用\n"
        "  markdown  GitHub 风格；设置了 $GITHUB_STEP_SUMMARY 时也追加到其中\n"
        "  html      一个自包含的页面（内联 CSS 和 SVG，不需要网络）：配合 --output FILE 使用"
    ),
    (
        "examples:\n"
        "  mcp-transcripts report recordings/ traces/\n"
        "  mcp-transcripts report --output-format html --output fleet.html recordings/\n"
        "  mcp-transcripts report --output-format json --output fleet.json recordings/\n"
        "  mcp-transcripts report --compare last-week.json --output-format markdown recordings/"
    ): (
        "示例：\n"
        "  mcp-transcripts report recordings/ traces/\n"
        "  mcp-transcripts report --output-format html --output fleet.html recordings/\n"
        "  mcp-transcripts report --output-format json --output fleet.json recordings/\n"
        "  mcp-transcripts report --compare last-week.json --output-format markdown recordings/"
    ),
    (
        "exit codes:\n"
        "  0 the report was written; 2 a file could not be read (it is listed in the report), or the\n"
        "  command line or --compare file is wrong"
    ): (
        "退出码：\n"
        "  0 报告已写出；2 有文件无法读取（报告中会列出它），或命令行或 --compare 文件有误"
    ),
    "text (a table, the default), json (schemas/report.schema.json), markdown (also appended to $GITHUB_STEP_SUMMARY when set) or html (one self-contained page)": "text（表格，默认）、json（schemas/report.schema.json）、markdown（设置了 $GITHUB_STEP_SUMMARY 时也追加到其中）或 html（一个自包含的页面）",
    "write the report to FILE instead of stdout (written whole or not at all)": "把报告写到 FILE 而不是标准输出（要么完整写出，要么完全不写）",
    "the language of the markdown and html reports (default: en)": "markdown 和 html 报告的语言（默认：en）",
    "a report an earlier run wrote with --output-format json: also list the servers whose verdict changed since, and those new or gone": "之前一次运行以 --output-format json 写出的报告：另外列出此后判定发生变化的服务器，以及新出现和已消失的服务器",
    # The exit-code table (migrator.engine.exitcodes), for the CLI reference.
    "success": "成功",
    "no finding at or above `--fail-on` (always, with `--fail-on never`); `--write-baseline` wrote the baseline": "没有达到 `--fail-on` 及以上的发现（使用 `--fail-on never` 时总是如此）；`--write-baseline` 已写出基线",
    "done: the files that needed a fix were rewritten, or nothing needed one; findings without a fix may remain": "完成：需要修复的文件已改写，或者没有文件需要修复；可能还有没有修复的发现",
    "nothing would change": "不会有改动",
    "printed": "已输出",
    "fetched and verified, or listed": "已获取并验证，或已列出",
    "the server exited 0": "服务器以 0 退出",
    "findings, or changes `fix --diff` would make": "有发现，或 `fix --diff` 会做出改动",
    "findings at or above `--fail-on`, or baseline entries that no longer occur": "有达到 `--fail-on` 及以上的发现，或基线中有条目不再出现",
    "something would change": "会有改动",
    "a usage or input error, whatever `--fail-on` says": "用法或输入错误，不论 `--fail-on` 如何设置",
    "a usage or configuration error, a file that could not be read or that was named but holds no MCP traffic, or no MCP traffic in any path; the other files are still reported": "用法或配置错误，有文件无法读取或被点名却不含 MCP 流量，或所有路径中都没有 MCP 流量；其余文件照常报告",
    "a usage error, no MCP traffic in any path, or a file with an input error, a refused rewrite or a failed write: that file is untouched, the other files are still written": "用法错误，所有路径中都没有 MCP 流量，或某个文件有输入错误、改写被拒绝或写入失败：该文件保持不变，其余文件照常写入",
    "a usage or input error; the other files' diffs are still printed": "用法或输入错误；其余文件的差异照常输出",
    "`explain` with an unknown code": "`explain` 给了未知的代码",
    "download failed, checksum mismatch, or no pinned checksum for that version": "下载失败、校验和不匹配，或该版本没有固定的校验和",
    "no server command, or the server could not be started": "没有服务器命令，或服务器无法启动",
    "Ctrl-C (SIGINT): a file being written is left as it was": "Ctrl-C（SIGINT）：正在写入的文件保持原样",
    "interrupted": "已中断",
    "the reader of standard output went away (a pipe into `head`); no traceback": "标准输出的读取方已离开（管道接到 `head`）；不打印回溯",
    "standard output closed": "标准输出已关闭",
    "`record` and `proxy` otherwise exit with the server's own exit code, or 128 + N if signal N ended the server.": "`record` 和 `proxy` 在其他情况下以服务器自己的退出码退出，服务器被信号 N 结束时为 128 + N。",
}
