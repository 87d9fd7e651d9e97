const TEMPLATES = {
  'order-confirmation': 'Thank you! Your order {order.id} is confirmed.',
};

function renderTemplate(templateName, values) {
  const template = TEMPLATES[templateName] || '';
  return template.replace('{order.id}', values.order ? values.order.id : '');
}

module.exports = { renderTemplate };
