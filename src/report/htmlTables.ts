/**
 * The report's tables as HTML: a plain table, and the interactive table (a drop-down per chosen
 * column, a text search, sorting by a click on a header) with the inline script that drives it.
 */
import { escapeHtml } from './markup.js';
import { uniqueInOrder } from './read.js';
import { formatNumber } from './tables.js';

export function table(header: string[], rows: string[][], numericFrom = 1): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
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
export function interactiveTable(id: string, columns: Column[], rows: Cell[][]): string {
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
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${columns[i].type === 'num' ? ' class="num"' : ''} data-v="${escapeHtml(c.v ?? c.text)}">${escapeHtml(c.text)}</td>`).join('')}</tr>`)
    .join('\n');
  return `${tools}\n<table id="${escapeHtml(id)}" class="interactive"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/**
 * The filtering and sorting of every `table.interactive`, inlined in the page (plain ES5, so
 * any browser runs it from disk). Filters combine; sorting is stable and puts empty cells last.
 */
export function interactiveTableScript(): string {
  return `(function () {
  Array.prototype.forEach.call(document.querySelectorAll('table.interactive'), function (table) {
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
  });
})();`;
}

export const numCell = (x: number | null, text = x === null ? '–' : formatNumber(x)): Cell => ({ text, v: x === null ? '' : x });
