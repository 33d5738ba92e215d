// Copy each column heading of a .stacked-table into its cells' data-label, so that the
// narrow-screen layout in extra.css can show every cell with the name of its column.
function labelStackedTables() {
  for (const table of document.querySelectorAll(".stacked-table table")) {
    const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim())
    for (const row of table.querySelectorAll("tbody tr")) {
      row.querySelectorAll("td").forEach((cell, index) => {
        if (headings[index]) cell.dataset.label = headings[index]
      })
    }
  }
}

// Material's document$ fires on every page view, including instant navigation.
if (typeof document$ !== "undefined") {
  document$.subscribe(labelStackedTables)
} else {
  document.addEventListener("DOMContentLoaded", labelStackedTables)
}
