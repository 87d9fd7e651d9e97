/**
 * One realistic example per operation, from the demo networks (examples/networks/clinic and k8s_ops),
 * keyed by `METHOD path` with the public or private prefix left out: a request body for operations that
 * take one, else the success response. The OpenAPI test validates each against the operation's schema.
 */
export interface OperationExample {
  summary: string;
  request?: unknown;
  response?: unknown;
}

const CLINIC_PATIENT = { patient_id: 'P00001' };

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExample>> = {
  'GET /auth/whoami': {
    summary: 'The caller of a private route',
    response: { account_id: 'u-1', account_type: 'user' },
  },
  'GET /kn/networks': {
    summary: 'The two demo networks',
    response: {
      networks: [
        {
          id: 'clinic',
          name: '智慧诊所知识网络',
          object_type_count: 8,
          relation_type_count: 11,
          action_type_count: 2,
          instance_count: 2416,
        },
      ],
    },
  },
  'POST /kn/search_schema': {
    summary: 'Object, relation, action and metric types about diabetes',
    request: { kn_id: 'clinic', query: '糖尿病', max_concepts: 5, schema_brief: true },
  },
  'POST /kn/semantic-search': {
    summary: 'Schema concepts about drugs',
    request: { kn_id: 'clinic', query: '药品', max_concepts: 3 },
  },
  'POST /kn/kn_search': {
    summary: 'Concepts and instances about diabetes treatment',
    request: { kn_id: 'clinic', query: '糖尿病治疗方案' },
  },
  'POST /kn/query_object_instance': {
    summary: 'Patients aged 60 to 80 in two districts with diabetes in their history',
    request: {
      kn_id: 'clinic',
      ot_id: 'patient',
      condition: {
        operation: 'and',
        sub_conditions: [
          { operation: 'in', field: 'district', value: ['西湖区', '临平区'] },
          { operation: 'range', field: 'age', value: [60, 80] },
          { operation: 'match', field: 'medical_history', value: '糖尿病' },
        ],
      },
      limit: 3,
      properties: ['patient_name', 'age', 'district', 'medical_history'],
    },
  },
  'POST /kn/query_instance_subgraph': {
    summary: "A patient's diagnosis and the drugs recommended for it",
    request: {
      kn_id: 'clinic',
      relation_type_paths: [
        {
          object_types: [
            { id: 'patient', condition: { operation: '==', field: 'patient_id', value: 'P00002' } },
            { id: 'diagnosis' },
            { id: 'drug', limit: 3 },
          ],
          relation_types: [
            {
              relation_type_id: 'patient_diagnosed_with',
              source_object_type_id: 'patient',
              target_object_type_id: 'diagnosis',
            },
            {
              relation_type_id: 'diagnosis_treated_by_drug',
              source_object_type_id: 'diagnosis',
              target_object_type_id: 'drug',
            },
          ],
        },
      ],
    },
  },
  'POST /kn/logic-property-resolver': {
    summary: "A patient's visit count (logic property visit_total)",
    request: {
      kn_id: 'clinic',
      ot_id: 'patient',
      query: '就诊次数',
      _instance_identities: [{ patient_id: 'P00276' }],
      properties: ['visit_total'],
    },
  },
  'POST /kn/find_skills': {
    summary: 'Skills for a diabetic patient',
    request: { kn_id: 'clinic', object_type_id: 'patient', instance_identities: [{ patient_id: 'P00002' }] },
  },
  'POST /kn/full_build_ontology': {
    summary: 'Rebuild the clinic network on the platform (KN_BACKEND=kweaver)',
    request: { kn_id: 'clinic', name: 'nightly rebuild' },
  },
  'GET /kn/full_ontology_building_status': {
    summary: 'The clinic network is built',
    response: { kn_id: 'clinic', state: 'completed', state_detail: 'all object types indexed' },
  },
  'POST /kn/networks/{kn_id}/reload': {
    summary: 'The clinic network re-indexed after its files changed, and swapped in',
    response: {
      kn_id: 'clinic',
      state: 'ready',
      hash: '2-keyword-6f1c0a9e4b7d2c35',
      storage: 'file',
      built_at: '2026-11-26T04:00:00.000Z',
      build_ms: 412,
      reused: false,
    },
  },
  'POST /kn/get_action_info': {
    summary: 'The prescription action for one patient, as a tool an agent can call',
    request: { kn_id: 'clinic', at_id: 'create_prescription', _instance_identity: CLINIC_PATIENT },
  },
  'POST /kn/check_action': {
    summary: 'Would prescribing metformin to a patient run? Nothing is executed',
    request: {
      kn_id: 'clinic',
      at_id: 'create_prescription',
      _instance_identity: CLINIC_PATIENT,
      arguments: { drug_id: 'DRG001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 },
    },
  },
  'GET /audit/recent': {
    summary: "The caller's own latest audit line",
    response: {
      scope: 'own',
      lines: [
        {
          time: '2026-11-26T04:00:00.000Z',
          account_id: 'u-1',
          account_type: 'user',
          door: 'rest',
          capability: 'kn_search',
          kn_id: 'clinic',
          decision: 'allowed',
          outcome: 'ok',
          duration_ms: 12,
          request_id: '6c0f3a0e-5d1b-4c39-9a0e-1f2b3c4d5e6f',
        },
      ],
    },
  },
  'POST /kn/execute_action': {
    summary: 'Prescribe metformin to a patient, confirmed by the caller',
    request: {
      kn_id: 'clinic',
      at_id: 'create_prescription',
      _instance_identity: CLINIC_PATIENT,
      arguments: { drug_id: 'DRG001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 },
      confirm: true,
    },
  },
  'POST /mcp/proxy/{mcp_id}/tools/{tool_name}/call': {
    summary: 'create_prescription on the clinic MCP server, with flat arguments',
    request: {
      patient_id: 'P00001',
      patient_name: '戴莉馨',
      allergy_history: '花粉',
      clinic_code: 'HZ-CLINIC-001',
      drug_id: 'DRG001',
      dosage_instruction: '口服，每次0.5g，每日2次',
      days_supply: 7,
    },
  },
  'POST /tool-box/{box_id}/proxy/{tool_id}': {
    summary: 'bookAppointment of the clinic toolbox, arguments layered by location',
    request: {
      header: { 'X-Request-Source': 'demo' },
      path: { dept_id: 'D01' },
      query: { channel: 'ai_agent' },
      body: { patient_id: 'P00001', phone: '135****3523', appointment_date: '2025-07-01' },
    },
  },
  'POST /code/graph_rag': {
    summary: 'Code and docs about discounts in the demo shop code',
    request: { query: 'apply discounts', fusion_depth: 1 },
  },
  'POST /code/call_chain': {
    summary: 'Callers and callees of calculateTotal',
    request: { symbol: 'calculateTotal', direction: 'both' },
  },
  'POST /kb/search': {
    summary: 'Runbook passages about a crash-looping pod',
    request: { query: 'pod keeps restarting CrashLoopBackOff', search_mode: 'keyword', top_k: 3 },
  },
  'GET /kb/knowledge-bases': {
    summary: 'The demo document folders',
    response: {
      knowledge_bases: [
        {
          id: 'k8s-runbooks',
          name: 'k8s-runbooks',
          description: 'Runbooks for the k8s_ops network',
          document_count: 25,
        },
      ],
    },
  },
  'POST /admin/api-keys': {
    summary: 'A key for an agent account, valid 90 days',
    request: { account_id: 'agent-7', account_type: 'agent', name: 'triage bot', expires_in: '90d' },
  },
  'GET /admin/api-keys': {
    summary: 'The keys of one account',
    response: {
      keys: [
        {
          key_id: 'k7f3a9c2',
          account_id: 'agent-7',
          account_type: 'agent',
          name: 'triage bot',
          status: 'active',
          created_at: '2026-11-01T09:00:00.000Z',
          created_by: 'platform',
          expires_at: '2027-01-30T09:00:00.000Z',
          last_used_at: null,
          revoked_at: null,
        },
      ],
    },
  },
  'GET /admin/api-keys/{key_id}': {
    summary: 'One key',
    response: {
      key_id: 'k7f3a9c2',
      account_id: 'agent-7',
      account_type: 'agent',
      name: 'triage bot',
      status: 'active',
      created_at: '2026-11-01T09:00:00.000Z',
      created_by: 'platform',
      expires_at: '2027-01-30T09:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
    },
  },
  'DELETE /admin/api-keys/{key_id}': {
    summary: 'The key, revoked',
    response: {
      key_id: 'k7f3a9c2',
      account_id: 'agent-7',
      account_type: 'agent',
      name: 'triage bot',
      status: 'revoked',
      created_at: '2026-11-01T09:00:00.000Z',
      created_by: 'platform',
      expires_at: '2027-01-30T09:00:00.000Z',
      last_used_at: '2026-11-20T14:02:11.000Z',
      revoked_at: '2026-11-26T08:00:00.000Z',
    },
  },
  'GET /.well-known/oauth-protected-resource': {
    summary: 'Where MCP clients get a token',
    response: {
      resource: 'https://agents.example.com/api/agent-retrieval/v1/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      resource_name: 'Agent Retrieval MCP',
    },
  },
  'GET /.well-known/oauth-protected-resource/api/agent-retrieval/v1/mcp': {
    summary: 'Where MCP clients get a token',
    response: {
      resource: 'https://agents.example.com/api/agent-retrieval/v1/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      resource_name: 'Agent Retrieval MCP',
    },
  },
  'POST /v1/chat/completions': {
    summary: 'A question about the clinic network, answered with server tools',
    request: { messages: [{ role: 'user', content: '糖尿病相关的概念有哪些？' }], kn_id: 'clinic' },
  },
  'POST /api/chat/completions': {
    summary: 'A streamed question about the k8s_ops network',
    request: { messages: [{ role: 'user', content: 'pod keeps restarting' }], stream: true, kn_id: 'k8s_ops' },
  },
  'GET /v1/models': {
    summary: 'The configured model',
    response: { object: 'list', data: [{ id: 'qwen-plus', object: 'model', created: 0, owned_by: 'agent-retrieval' }] },
  },
  'GET /v1/tools': {
    summary: 'One of the server tools',
    response: {
      object: 'list',
      data: [
        {
          type: 'function',
          function: {
            name: 'kn_search',
            description: 'Search a knowledge network for concepts and instances related to a question',
            parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
          },
        },
      ],
    },
  },
  'POST /v1/tools/{name}/call': {
    summary: 'write_file in the session workspace',
    request: { arguments: { path: 'notes.txt', content: 'hello' }, session_id: 'demo' },
  },
  'POST /mcp': {
    summary: 'Call kn_search on the clinic network',
    request: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'kn_search', arguments: { query: '糖尿病治疗方案', kn_id: 'clinic' } },
    },
  },
  'GET /health/ready': {
    summary: 'Ready, with both demo networks loaded',
    response: {
      status: 'ok',
      info: { knowledge_network: { status: 'up', loaded: ['clinic', 'k8s_ops'] } },
      error: {},
      details: { knowledge_network: { status: 'up', loaded: ['clinic', 'k8s_ops'] } },
    },
  },
  'GET /health': {
    summary: 'Every indicator up',
    response: { status: 'ok', info: {}, error: {}, details: {} },
  },
  'GET /health/live': { summary: 'The process answers', response: { status: 'ok', info: {}, error: {}, details: {} } },
  'GET /health/alive': { summary: 'The process answers', response: { status: 'ok', info: {}, error: {}, details: {} } },
  'GET /console': { summary: 'The console page', response: '<!doctype html><html lang="en">…</html>' },
  'GET /console/assets/{name}': { summary: 'The console script', response: 'import{…}from"./cytoscape-…js";…' },
  'GET /mcp/info': {
    summary: 'The server and the tools a clinic connection is offered',
    response: {
      server: { name: 'agent-retrieval', version: '0.1.0' },
      instructions: 'Start with kn_search …',
      tools: [{ name: 'kn_search' }, { name: 'query_object_instance' }],
      prompts: [],
      resourceTemplates: [],
    },
  },
  'GET /metrics': {
    summary: 'A few lines of the exposition',
    response:
      '# TYPE agent_retrieval_capability_calls_total counter\nagent_retrieval_capability_calls_total{door="rest",capability="kn_search",decision="allowed",outcome="ok"} 12\n',
  },
};

/** Examples of operations without a body or a JSON answer: the MCP session header. */
export const MCP_SESSION_EXAMPLE = '4f9d1c62-8a53-4b1e-9f0e-2d7c3b5a6e18';
