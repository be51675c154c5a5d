/**
 * The report's tables as HTML: a plain table, and the interactive table (a drop-down per chosen
 * column, a text search, sorting by a click on a header) with the inline script that drives it.
 * A table longer than LONG_TABLE_ROWS is collapsed: a line saying how many rows and over what
 * values comes first, the rows themselves (JSON, built into the table by the script) one click
 * away, beside the files that hold them in full.
 */
import { escapeHtml, jsonForScript } from './markup.js';
import { uniqueInOrder } from './read.js';
import { formatNumber } from './tables.js';
import { formatCount } from '../util/format.js';

/** Tables with more rows than this start collapsed, a summary line first. */
export const LONG_TABLE_ROWS = 40;

/** A file that holds a table in full, linked beside its summary (path relative to the folder). */
export interface TableFile {
  label: string;
  href: string;
}

const fileLinks = (files: readonly TableFile[]) => (files.length ? ` (in full: ${files.map((f) => `<a href="${escapeHtml(f.href)}">${escapeHtml(f.label)}</a>`).join(', ')})` : '');

/** A plain table; a long one in a collapsed `<details>` whose summary gives the row count. */
export function table(header: string[], rows: string[][], numericFrom = 1, what = 'rows'): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  const html = `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
  return rows.length > LONG_TABLE_ROWS ? `<details class="long-table"><summary>${formatCount(rows.length)} ${escapeHtml(what)}: show them</summary>\n${html}\n</details>` : html;
}

/** A column of an interactive table: `num` columns sort by the number in each cell's data-v. */
export interface Column {
  title: string;
  type: 'num' | 'text';
  /** offer a drop-down of its distinct values above the table */
  choice?: boolean;
}

/** One cell: what it shows, and the value it sorts and filters by (defaults to the text). */
export interface Cell {
  text: string;
  v?: string | number | null;
}

/**
 * A table the reader can filter (a drop-down per `choice` column and a text search) and sort
 * (click a header; again to reverse), by the inline script of the page: no library, no network.
 */
export function interactiveTable(id: string, columns: Column[], rows: Cell[][], files: readonly TableFile[] = []): string {
  const choices = columns
    .map((c, i) => {
      if (!c.choice) return '';
      const values = uniqueInOrder(rows.map((r) => String(r[i].v ?? r[i].text)));
      if (c.type === 'num') values.sort((a, b) => (Number(a) || 0) - (Number(b) || 0));
      const opts = values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v === '' ? '–' : v)}</option>`).join('');
      return `<label>${escapeHtml(c.title)} <select data-col="${i}"><option value="">all</option>${opts}</select></label>`;
    })
    .join('\n');
  const tools = `<div class="table-tools" id="${escapeHtml(id)}-tools">
${choices}
<label>search <input type="search" placeholder="any text in a row"></label>
<span class="count" aria-live="polite">${rows.length} of ${rows.length} rows</span>
</div>`;
  const th = columns.map((c) => `<th data-type="${c.type}" aria-sort="none"><button type="button" title="sort by ${escapeHtml(c.title)}">${escapeHtml(c.title)}</button></th>`).join('');
  const head = `<table id="${escapeHtml(id)}" class="interactive"><thead><tr>${th}</tr></thead><tbody>`;
  if (rows.length <= LONG_TABLE_ROWS) {
    const body = rows
      .map((r) => `<tr>${r.map((c, i) => `<td${columns[i].type === 'num' ? ' class="num"' : ''} data-v="${escapeHtml(c.v ?? c.text)}">${escapeHtml(c.text)}</td>`).join('')}</tr>`)
      .join('\n');
    return `${tools}\n${head}\n${body}\n</tbody></table>`;
  }
  return `<p class="table-summary">${escapeHtml(tableSummary(columns, rows))}${fileLinks(files)}</p>
<details class="long-table" id="${escapeHtml(id)}-details"><summary>Show all ${formatCount(rows.length)} rows (filter, search, sort)</summary>
${tools}
${head}</tbody></table>
<script type="application/json" id="${escapeHtml(id)}-rows">${jsonForScript(tableRowsJson(columns, rows))}</script>
</details>`;
}

/** Significant digits a long table's numbers sort by (beyond the 4 decimals a table shows). */
const SORT_DIGITS = 6;

/**
 * A long table's rows as compact JSON, built into the table by the page's script when the reader
 * opens it (a tenth of the markup of every cell): a cell is its text, or [text, value] when they
 * differ; a drop-down column's cells are indices into its list of distinct cells (`values`); the
 * other numbers keep SORT_DIGITS significant digits, which is what they sort by.
 */
export function tableRowsJson(columns: readonly Column[], rows: readonly Cell[][]): { values: (unknown[] | null)[]; rows: unknown[][] } {
  const encode = (c: Cell, choice: boolean): unknown => {
    const v = c.v ?? c.text;
    const value = !choice && typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(SORT_DIGITS)) : v;
    return String(value) === c.text ? c.text : [c.text, value];
  };
  const values = columns.map((c, i) => (c.choice ? uniqueInOrder(rows.map((r) => JSON.stringify(encode(r[i], true)))) : null));
  const index = values.map((list) => (list ? new Map(list.map((v, k) => [v, k])) : null));
  return {
    values: values.map((list) => (list ? list.map((v) => JSON.parse(v) as unknown) : null)),
    rows: rows.map((r) => r.map((c, i) => (index[i] ? index[i].get(JSON.stringify(encode(c, true))) : encode(c, false)))),
  };
}

/** "1,812 rows over data set (1), n (4), …": how many distinct values each drop-down column takes. */
export function tableSummary(columns: readonly Column[], rows: readonly Cell[][]): string {
  const counts = columns.flatMap((c, i) => (c.choice ? [`${c.title} (${uniqueInOrder(rows.map((r) => String(r[i].v ?? r[i].text))).length})`] : []));
  return `${formatCount(rows.length)} rows${counts.length ? ` over ${counts.join(', ')}` : ''}.`;
}

/**
 * The filtering and sorting of every `table.interactive`, inlined in the page (plain ES5, so
 * any browser runs it from disk). Filters combine; sorting is stable and puts empty cells last.
 */
export function interactiveTableScript(): string {
  return `(function () {
  function build(table) {
    var json = document.getElementById(table.id + '-rows');
    if (!json) return;
    var types = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.getAttribute('data-type'); });
    var tbody = table.tBodies[0];
    var data = JSON.parse(json.textContent);
    data.rows.forEach(function (row) {
      var tr = document.createElement('tr');
      row.forEach(function (cell, i) {
        if (data.values[i]) cell = data.values[i][cell];
        var td = document.createElement('td');
        var text = Array.isArray(cell) ? cell[0] : cell;
        td.textContent = text;
        td.setAttribute('data-v', Array.isArray(cell) ? String(cell[1]) : text);
        if (types[i] === 'num') td.className = 'num';
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
  }
  function init(table) {
    var tools = document.getElementById(table.id + '-tools');
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.forEach(function (tr, i) { tr.setAttribute('data-index', String(i)); });
    var selects = Array.prototype.slice.call(tools.querySelectorAll('select[data-col]'));
    var search = tools.querySelector('input[type=search]');
    var count = tools.querySelector('.count');
    function apply() {
      var q = search.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (tr) {
        var ok = selects.every(function (s) { return s.value === '' || tr.cells[Number(s.getAttribute('data-col'))].getAttribute('data-v') === s.value; });
        if (ok && q !== '' && tr.textContent.toLowerCase().indexOf(q) < 0) ok = false;
        tr.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' rows';
    }
    selects.forEach(function (s) { s.addEventListener('change', apply); });
    search.addEventListener('input', apply);
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    ths.forEach(function (th, col) {
      th.querySelector('button').addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        ths.forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var num = th.getAttribute('data-type') === 'num';
        function key(tr) {
          var v = tr.cells[col].getAttribute('data-v');
          return num ? (v === '' ? NaN : Number(v)) : v;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b), c;
          if (num) {
            if (isNaN(x) || isNaN(y)) c = isNaN(x) === isNaN(y) ? 0 : (isNaN(x) ? 1 : -1) * dir;
            else c = x - y;
          } else c = x < y ? -1 : x > y ? 1 : 0;
          return dir * c || Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index'));
        });
        rows.forEach(function (tr) { tbody.appendChild(tr); });
      });
    });
  }
  // a long table's rows are built the first time its <details> opens
  Array.prototype.forEach.call(document.querySelectorAll('table.interactive'), function (table) {
    var details = document.getElementById(table.id + '-details');
    if (!details) return init(table);
    details.addEventListener('toggle', function once() {
      if (!details.open) return;
      details.removeEventListener('toggle', once);
      build(table);
      init(table);
    });
  });
})();`;
}

export const numCell = (x: number | null, text = x === null ? '–' : formatNumber(x)): Cell => ({ text, v: x === null ? '' : x });
