import { CUSTOMERS, type Customer, INVOICES, ISSUES } from '../../test/fixtures/servers/business-data.js';

/** One multi-step task over the `business` fixtures: the script a model would write, and the answer. */
export interface CodeModeTask {
  id: string;
  question: string;
  /** The tools a model needs for it (their definitions are in a direct caller's prompt). */
  tools: string[];
  /** The code-mode script: the body of an async function over `tools`. */
  script: string;
  /** The right answer, computed from the records themselves. */
  expected(): unknown;
}

const ALL_OPEN = `const open = [];
for (let page = 1; ; page++) {
  const r = await tools.issues.list_issues({ state: "open", page });
  open.push(...r.issues);
  if (page >= r.total_pages) break;
}`;
const ALL_CUSTOMERS = `const customers = [];
for (let page = 1; ; page++) {
  const r = await tools.crm.list_customers({ page });
  customers.push(...r.customers);
  if (page >= r.total_pages) break;
}
const byId = Object.fromEntries(customers.map((c) => [c.id, c]));`;
const allInvoices = (filter: string) => `const invoices = [];
for (let page = 1; ; page++) {
  const r = await tools.billing.list_invoices({ ${filter}page });
  invoices.push(...r.invoices);
  if (page >= r.total_pages) break;
}`;

const open = () => ISSUES.filter((issue) => issue.state === 'open');
const customer = (id: string) => CUSTOMERS.find((each) => each.id === id) as Customer;
const round2 = (value: number) => Math.round(value * 100) / 100;
const inQ4 = (date: string) => date >= '2026-10-01' && date <= '2026-12-31';
const unpaidOf = (id: string) =>
  round2(
    INVOICES.filter((invoice) => invoice.customer_id === id && invoice.status === 'unpaid').reduce(
      (sum, invoice) => sum + invoice.amount,
      0,
    ),
  );
const countBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};
const topKey = (counts: Record<string, number>) =>
  Object.entries(counts).sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))[0]![0];

const LIST_ISSUES = 'issues__list_issues';
const GET_ISSUE = 'issues__get_issue';
const LIST_CUSTOMERS = 'crm__list_customers';
const GET_CUSTOMER = 'crm__get_customer';
const LIST_INVOICES = 'billing__list_invoices';

/** The suite: 21 tasks, each a few pages to a few dozen calls over one to three servers. */
export const CODE_MODE_TASKS: readonly CodeModeTask[] = [
  {
    id: 'open-count',
    question: 'How many issues are open?',
    tools: [LIST_ISSUES],
    script: `const r = await tools.issues.list_issues({ state: "open", per_page: 1 });\nreturn r.total;`,
    expected: () => open().length,
  },
  {
    id: 'open-bugs',
    question: 'How many open issues are labelled bug?',
    tools: [LIST_ISSUES],
    script: `${ALL_OPEN}\nreturn open.filter((i) => i.labels.includes("bug")).length;`,
    expected: () => open().filter((issue) => issue.labels.includes('bug')).length,
  },
  {
    id: 'q4-contracts',
    question: 'Which open issues come from a customer whose contract ends this quarter (Q4 2026)?',
    tools: [LIST_ISSUES, LIST_CUSTOMERS],
    script: `${ALL_OPEN}\n${ALL_CUSTOMERS}\nreturn open.filter((i) => { const end = byId[i.customer_id].contract_end; return end >= "2026-10-01" && end <= "2026-12-31"; }).map((i) => i.id);`,
    expected: () =>
      open()
        .filter((issue) => inQ4(customer(issue.customer_id).contract_end))
        .map((issue) => issue.id),
  },
  {
    id: 'top-region',
    question: 'Which region has the most customers?',
    tools: [LIST_CUSTOMERS],
    script: `${ALL_CUSTOMERS}\nconst n = {};\nfor (const c of customers) n[c.region] = (n[c.region] ?? 0) + 1;\nreturn Object.entries(n).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];`,
    expected: () => topKey(countBy(CUSTOMERS, (each) => each.region)),
  },
  {
    id: 'unpaid-total',
    question: 'What is the total of unpaid invoices?',
    tools: [LIST_INVOICES],
    script: `${allInvoices('status: "unpaid", ')}\nreturn Math.round(invoices.reduce((s, i) => s + i.amount, 0) * 100) / 100;`,
    expected: () =>
      round2(
        INVOICES.filter((invoice) => invoice.status === 'unpaid').reduce(
          (sum, invoice) => sum + invoice.amount,
          0,
        ),
      ),
  },
  {
    id: 'top-debtor',
    question: 'Which customer owes the most in unpaid invoices, and how much?',
    tools: [LIST_INVOICES, GET_CUSTOMER],
    script: `${allInvoices('status: "unpaid", ')}\nconst owed = {};\nfor (const i of invoices) owed[i.customer_id] = (owed[i.customer_id] ?? 0) + i.amount;\nconst [id, amount] = Object.entries(owed).sort((a, b) => b[1] - a[1])[0];\nconst c = await tools.crm.get_customer({ id });\nreturn { name: c.name, owed: Math.round(amount * 100) / 100 };`,
    expected: () => {
      const owed = CUSTOMERS.map((each) => ({ name: each.name, owed: unpaidOf(each.id) })).sort(
        (left, right) => right.owed - left.owed,
      );
      return owed[0];
    },
  },
  {
    id: 'enterprise-with-open',
    question: 'How many enterprise customers have at least one open issue?',
    tools: [LIST_ISSUES, LIST_CUSTOMERS],
    script: `${ALL_OPEN}\n${ALL_CUSTOMERS}\nreturn new Set(open.filter((i) => byId[i.customer_id].tier === "enterprise").map((i) => i.customer_id)).size;`,
    expected: () =>
      new Set(
        open()
          .filter((issue) => customer(issue.customer_id).tier === 'enterprise')
          .map((issue) => issue.customer_id),
      ).size,
  },
  {
    id: 'oldest-open',
    question: 'Which open issue is the oldest?',
    tools: [LIST_ISSUES],
    script: `${ALL_OPEN}\nreturn open.reduce((a, b) => (b.created < a.created || (b.created === a.created && b.id < a.id) ? b : a)).id;`,
    expected: () =>
      open().reduce((left, right) =>
        right.created < left.created || (right.created === left.created && right.id < left.id) ? right : left,
      ).id,
  },
  {
    id: 'closed-march',
    question: 'How many closed issues were created in March 2026?',
    tools: [LIST_ISSUES],
    script: `const closed = [];\nfor (let page = 1; ; page++) {\n  const r = await tools.issues.list_issues({ state: "closed", page });\n  closed.push(...r.issues);\n  if (page >= r.total_pages) break;\n}\nreturn closed.filter((i) => i.created.startsWith("2026-03")).length;`,
    expected: () =>
      ISSUES.filter((issue) => issue.state === 'closed' && issue.created.startsWith('2026-03')).length,
  },
  {
    id: 'gold-average',
    question: 'What is the average invoice amount of gold-tier customers?',
    tools: [LIST_INVOICES, LIST_CUSTOMERS],
    script: `${allInvoices('')}\n${ALL_CUSTOMERS}\nconst gold = invoices.filter((i) => byId[i.customer_id].tier === "gold");\nreturn Math.round((gold.reduce((s, i) => s + i.amount, 0) / gold.length) * 100) / 100;`,
    expected: () => {
      const gold = INVOICES.filter((invoice) => customer(invoice.customer_id).tier === 'gold');
      return round2(gold.reduce((sum, invoice) => sum + invoice.amount, 0) / gold.length);
    },
  },
  {
    id: 'no-invoices',
    question: 'How many customers have no invoice at all?',
    tools: [LIST_INVOICES, LIST_CUSTOMERS],
    script: `${allInvoices('')}\n${ALL_CUSTOMERS}\nconst billed = new Set(invoices.map((i) => i.customer_id));\nreturn customers.filter((c) => !billed.has(c.id)).length;`,
    expected: () =>
      CUSTOMERS.filter((each) => !INVOICES.some((invoice) => invoice.customer_id === each.id)).length,
  },
  {
    id: 'enterprise-security',
    question: 'List the titles of open security issues of enterprise customers.',
    tools: [LIST_ISSUES, GET_CUSTOMER],
    script: `const security = [];\nfor (let page = 1; ; page++) {\n  const r = await tools.issues.list_issues({ state: "open", label: "security", page });\n  security.push(...r.issues);\n  if (page >= r.total_pages) break;\n}\nconst tiers = {};\nfor (const id of new Set(security.map((i) => i.customer_id))) tiers[id] = (await tools.crm.get_customer({ id })).tier;\nreturn security.filter((i) => tiers[i.customer_id] === "enterprise").map((i) => "#" + i.id + " " + i.title);`,
    expected: () =>
      open()
        .filter(
          (issue) => issue.labels.includes('security') && customer(issue.customer_id).tier === 'enterprise',
        )
        .map((issue) => `#${issue.id} ${issue.title}`),
  },
  {
    id: 'busiest-manager',
    question: 'Which account manager has the most open issues across their customers?',
    tools: [LIST_ISSUES, LIST_CUSTOMERS],
    script: `${ALL_OPEN}\n${ALL_CUSTOMERS}\nconst n = {};\nfor (const i of open) { const m = byId[i.customer_id].account_manager; n[m] = (n[m] ?? 0) + 1; }\nreturn Object.entries(n).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];`,
    expected: () => topKey(countBy(open(), (issue) => customer(issue.customer_id).account_manager)),
  },
  {
    id: 'eu-paid',
    question: 'How much have customers in the EU paid in total?',
    tools: [LIST_INVOICES, LIST_CUSTOMERS],
    script: `${allInvoices('status: "paid", ')}\n${ALL_CUSTOMERS}\nreturn Math.round(invoices.filter((i) => byId[i.customer_id].region === "EU").reduce((s, i) => s + i.amount, 0) * 100) / 100;`,
    expected: () =>
      round2(
        INVOICES.filter(
          (invoice) => invoice.status === 'paid' && customer(invoice.customer_id).region === 'EU',
        ).reduce((sum, invoice) => sum + invoice.amount, 0),
      ),
  },
  {
    id: 'ending-and-unpaid',
    question: 'How many customers whose contract ends in 2026 have unpaid invoices?',
    tools: [LIST_INVOICES, LIST_CUSTOMERS],
    script: `${allInvoices('status: "unpaid", ')}\n${ALL_CUSTOMERS}\nconst owing = new Set(invoices.map((i) => i.customer_id));\nreturn customers.filter((c) => c.contract_end.startsWith("2026") && owing.has(c.id)).length;`,
    expected: () =>
      CUSTOMERS.filter((each) => each.contract_end.startsWith('2026') && unpaidOf(each.id) > 0).length,
  },
  {
    id: 'issue-42-debt',
    question: 'Who reported issue 42, and how much do they owe?',
    tools: [GET_ISSUE, GET_CUSTOMER, LIST_INVOICES],
    script: `const issue = await tools.issues.get_issue({ id: 42 });\nconst c = await tools.crm.get_customer({ id: issue.customer_id });\n${allInvoices('customer_id: c.id, status: "unpaid", ')}\nreturn { name: c.name, owed: Math.round(invoices.reduce((s, i) => s + i.amount, 0) * 100) / 100 };`,
    expected: () => {
      const reporter = customer(ISSUES.find((issue) => issue.id === 42)!.customer_id);
      return { name: reporter.name, owed: unpaidOf(reporter.id) };
    },
  },
  {
    id: 'customers-with-open',
    question: 'How many distinct customers have open issues?',
    tools: [LIST_ISSUES],
    script: `${ALL_OPEN}\nreturn new Set(open.map((i) => i.customer_id)).size;`,
    expected: () => new Set(open().map((issue) => issue.customer_id)).size,
  },
  {
    id: 'top-three',
    question: 'Which three customers have the most open issues?',
    tools: [LIST_ISSUES, GET_CUSTOMER],
    script: `${ALL_OPEN}\nconst n = {};\nfor (const i of open) n[i.customer_id] = (n[i.customer_id] ?? 0) + 1;\nconst top = Object.entries(n).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);\nconst names = await Promise.all(top.map(([id]) => tools.crm.get_customer({ id })));\nreturn names.map((c, k) => c.name + " (" + top[k][1] + ")");`,
    expected: () =>
      Object.entries(countBy(open(), (issue) => issue.customer_id))
        .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
        .slice(0, 3)
        .map(([id, count]) => `${customer(id).name} (${count})`),
  },
  {
    id: 'common-label',
    question: 'Which label is most common among open issues?',
    tools: [LIST_ISSUES],
    script: `${ALL_OPEN}\nconst n = {};\nfor (const i of open) for (const l of i.labels) n[l] = (n[l] ?? 0) + 1;\nreturn Object.entries(n).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];`,
    expected: () =>
      topKey(
        countBy(
          open().flatMap((issue) => issue.labels),
          (label) => label,
        ),
      ),
  },
  {
    id: 'open-per-tier',
    question: 'How many open issues does each customer tier have?',
    tools: [LIST_ISSUES, LIST_CUSTOMERS],
    script: `${ALL_OPEN}\n${ALL_CUSTOMERS}\nconst n = { enterprise: 0, free: 0, gold: 0 };\nfor (const i of open) n[byId[i.customer_id].tier]++;\nreturn n;`,
    expected: () => ({
      enterprise: 0,
      free: 0,
      gold: 0,
      ...countBy(open(), (issue) => customer(issue.customer_id).tier),
    }),
  },
  {
    id: 'overdue',
    question: 'How many unpaid invoices were due before November 2026?',
    tools: [LIST_INVOICES],
    script: `${allInvoices('status: "unpaid", ')}\nreturn invoices.filter((i) => i.due < "2026-11-01").length;`,
    expected: () =>
      INVOICES.filter((invoice) => invoice.status === 'unpaid' && invoice.due < '2026-11-01').length,
  },
];
