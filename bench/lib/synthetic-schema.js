// The synthetic benchmark network's schema and its rendering as BKN files (one definition per file).

/** `share` = fraction of the requested instance count; properties are [name, display, type, description]. */
const OBJECT_TYPES = [
  {
    id: 'supplier',
    name: '供应商 Supplier',
    share: 0.01,
    display: 'supplier_name',
    description: 'Companies that manufacture and ship products; 供应商及其评级。',
    properties: [
      ['supplier_id', 'Supplier ID', 'string', 'Unique supplier id'],
      ['supplier_name', '名称 Name', 'string', 'Supplier name'],
      ['country', '国家 Country', 'string', 'Country of origin'],
      ['rating', '评级 Rating', 'float', 'Average rating 1-5'],
      ['description', '简介 Description', 'text', 'What the supplier makes'],
    ],
  },
  {
    id: 'product',
    name: '产品 Product',
    share: 0.09,
    display: 'product_name',
    description: 'Catalogue products sold in the shop; 商品目录。',
    properties: [
      ['product_id', 'Product ID', 'string', 'Unique product id'],
      ['product_name', '名称 Name', 'string', 'Product title'],
      ['category', '类目 Category', 'string', 'Catalogue category'],
      ['price', '价格 Price', 'decimal', 'Unit price'],
      ['supplier_id', 'Supplier ID', 'string', 'Who supplies it'],
      ['description', '描述 Description', 'text', 'Product description'],
    ],
  },
  {
    id: 'customer',
    name: '客户 Customer',
    share: 0.2,
    display: 'customer_name',
    description: 'Registered shoppers; 注册客户及其分层。',
    properties: [
      ['customer_id', 'Customer ID', 'string', 'Unique customer id'],
      ['customer_name', '姓名 Name', 'string', 'Customer name'],
      ['city', '城市 City', 'string', 'Home city'],
      ['segment', '分层 Segment', 'string', 'consumer / small business / enterprise / VIP'],
      ['profile', '画像 Profile', 'text', 'Interests and history'],
      ['registered_at', '注册日期 Registered', 'date', 'Registration date'],
    ],
  },
  {
    id: 'sales_order',
    name: '订单 Order',
    share: 0.5,
    display: 'order_id',
    description: 'Orders placed by customers, one product per line; 订单。',
    properties: [
      ['order_id', 'Order ID', 'string', 'Unique order id'],
      ['customer_id', 'Customer ID', 'string', 'Who ordered'],
      ['product_id', 'Product ID', 'string', 'What was ordered'],
      ['quantity', '数量 Quantity', 'integer', 'Units ordered'],
      ['amount', '金额 Amount', 'decimal', 'Order total'],
      ['status', '状态 Status', 'string', 'paid / shipped / delivered / refunded / cancelled'],
      ['note', '备注 Note', 'text', 'Customer note'],
      ['ordered_at', '下单时间 Ordered At', 'datetime', 'Order time'],
    ],
  },
  {
    id: 'ticket',
    name: '工单 Ticket',
    share: 0.2,
    display: 'subject',
    description: 'Customer-service tickets about orders; 售后工单。',
    properties: [
      ['ticket_id', 'Ticket ID', 'string', 'Unique ticket id'],
      ['order_id', 'Order ID', 'string', 'Order the ticket is about'],
      ['priority', '优先级 Priority', 'string', 'P1-P4'],
      ['subject', '主题 Subject', 'string', 'Ticket subject'],
      ['body', '内容 Body', 'text', 'What the customer wrote'],
      ['status', '状态 Status', 'string', 'open / pending / resolved / closed'],
      ['created_at', '创建时间 Created At', 'datetime', 'When the ticket was opened'],
    ],
  },
];

/** [id, name, source, target, sourceProperty, targetProperty] for direct; view relations carry `view`. */
const RELATION_TYPES = [
  {
    id: 'order_placed_by_customer',
    name: '订单属于客户 Order placed by Customer',
    source: 'sales_order',
    target: 'customer',
    mapping: ['customer_id', 'customer_id'],
  },
  {
    id: 'order_contains_product',
    name: '订单包含产品 Order contains Product',
    source: 'sales_order',
    target: 'product',
    mapping: ['product_id', 'product_id'],
  },
  {
    id: 'product_supplied_by_supplier',
    name: '产品来自供应商 Product supplied by Supplier',
    source: 'product',
    target: 'supplier',
    mapping: ['supplier_id', 'supplier_id'],
  },
  {
    id: 'ticket_about_order',
    name: '工单关联订单 Ticket about Order',
    source: 'ticket',
    target: 'sales_order',
    mapping: ['order_id', 'order_id'],
  },
  {
    id: 'customer_favors_product',
    name: '客户收藏产品 Customer favors Product',
    source: 'customer',
    target: 'product',
    view: { id: 'customer_product_view', source: ['customer_id', 'customer_id'], target: ['product_id', 'product_id'] },
  },
];

const ACTION_TYPES = [
  {
    id: 'refund_order',
    name: '订单退款 Refund Order',
    bound: 'sales_order',
    kind: 'modify',
    tool: ['mcp', 'shop_tools', 'refund_order'],
    parameters: [
      ['order_id', 'string', 'property', 'order_id', 'Order to refund'],
      ['amount', 'decimal', 'property', 'amount', 'Refund amount'],
      ['reason', 'string', 'input', '-', 'Refund reason'],
      ['channel', 'string', 'const', 'original_payment', 'Refund to the original payment method'],
    ],
  },
  {
    id: 'escalate_ticket',
    name: '升级工单 Escalate Ticket',
    bound: 'ticket',
    kind: 'modify',
    tool: ['tool', 'support_toolbox', 'escalateTicket'],
    parameters: [
      ['ticket_id', 'string', 'property', 'ticket_id', 'Ticket to escalate'],
      ['priority', 'string', 'property', 'priority', 'Current priority'],
      ['assignee', 'string', 'input', '-', 'Who takes it over'],
      ['queue', 'string', 'const', 'tier2', 'Escalation queue'],
    ],
  },
];

const table = (header, rows) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
const frontmatter = (type, id, name, extra = '') =>
  `---\ntype: ${type}\nid: ${id}\nname: ${name}\ntags: [benchmark]\n${extra}---\n`;

function networkBkn(id, name, instances) {
  return `${frontmatter('knowledge_network', id, name)}\n# ${name}\n\nSynthetic shop network for benchmarks: ${instances} instances of suppliers, products, customers, orders and tickets, 中英文混合文本。\n`;
}

function objectTypeBkn(ot) {
  const properties = table(
    ['Name', 'Display Name', 'Type', 'Description', 'Mapped Field'],
    ot.properties.map(([name, display, type, description]) => [name, display, type, description, name]),
  );
  const logic =
    ot.id !== 'customer'
      ? ''
      : `\n### Logic Properties\n\n#### order_count\n\n- **Display**: 订单数 Order Count\n- **Type**: operator\n- **Source**: count_related_records (operator)\n- **Description**: Orders the customer placed in a period\n\n${table(
          ['Parameter', 'Type', 'Source', 'Binding', 'Description'],
          [
            ['customer_id', 'string', 'property', 'customer_id', 'Customer'],
            ['record_type', 'string', 'const', 'sales_order', 'What to count'],
            ['since', 'string', 'input', '-', 'Start date'],
          ],
        )}\n`;
  return `${frontmatter('object_type', ot.id, ot.name)}\n## ObjectType: ${ot.name}\n\n${ot.description}\n\n### Data Properties\n\n${properties}\n\n### Keys\n\nPrimary Keys: ${ot.properties[0][0]}\nDisplay Key: ${ot.display}\nIncremental Key:\n${logic}`;
}

function relationTypeBkn(rt) {
  const head = `${frontmatter('relation_type', rt.id, rt.name)}\n## RelationType: ${rt.name}\n\n${rt.name}.\n\n### Endpoint\n\n${table(['Source', 'Target', 'Type'], [[rt.source, rt.target, rt.view ? 'data_view' : 'direct']])}\n\n`;
  if (!rt.view) return `${head}### Mapping Rules\n\n${table(['Source Property', 'Target Property'], [rt.mapping])}\n`;
  return `${head}### Mapping View\n\n${table(['Type', 'ID'], [['data_view', rt.view.id]])}\n\n### Source Mapping\n\n${table(['Source Property', 'View Property'], [rt.view.source])}\n\n### Target Mapping\n\n${table(['View Property', 'Target Property'], [rt.view.target])}\n`;
}

function actionTypeBkn(at) {
  const [type, box, tool] = at.tool;
  const toolTable =
    type === 'mcp'
      ? table(['Type', 'MCP ID', 'Tool Name'], [at.tool])
      : table(['Type', 'Toolbox ID', 'Tool ID'], [[type, box, tool]]);
  return `${frontmatter('action_type', at.id, at.name, 'enabled: true\nrisk_level: low\n')}\n## ActionType: ${at.name}\n\n${at.name}.\n\n### Bound Object\n\n${table(['Bound Object', 'Action Type'], [[at.bound, at.kind]])}\n\n### Tool Configuration\n\n${toolTable}\n\n### Parameter Binding\n\n${table(['Parameter', 'Type', 'Source', 'Binding', 'Description'], at.parameters)}\n`;
}

function conceptGroupBkn() {
  const rows = OBJECT_TYPES.map((ot) => [ot.id, ot.name, ot.description]);
  return `${frontmatter('concept_group', 'commerce', '电商 Commerce')}\n## ConceptGroup: 电商 Commerce\n\nEvery object type of the synthetic shop.\n\n### Object Types\n\n${table(['ID', 'Name', 'Description'], rows)}\n`;
}

module.exports = {
  OBJECT_TYPES,
  RELATION_TYPES,
  ACTION_TYPES,
  networkBkn,
  objectTypeBkn,
  relationTypeBkn,
  actionTypeBkn,
  conceptGroupBkn,
};
