import type { PropertyDef } from './dataset.js';

/**
 * HubSpot's own properties of the standard object types that the mock models (a subset of each
 * portal's defaults: the ones agents, the MCP server and the SDK read and write), as
 * `GET /crm/v3/properties/{objectType}` lists them. Names, types, field types and groups are
 * HubSpot's; deal and ticket stages are checked against the pipelines instead of options.
 */
type Def = Omit<PropertyDef, 'description' | 'options' | 'hasUniqueValue' | 'hidden' | 'formField'> & Partial<PropertyDef>;

const opts = (...pairs: [string, string][]) => pairs.map(([value, label], i) => ({ label, value, description: '', displayOrder: i, hidden: false }));
const text = (name: string, label: string, groupName: string, extra: Partial<PropertyDef> = {}): Def => ({ name, label, type: 'string', fieldType: 'text', groupName, ...extra });
const num = (name: string, label: string, groupName: string): Def => ({ name, label, type: 'number', fieldType: 'number', groupName });
const dt = (name: string, label: string, groupName: string): Def => ({ name, label, type: 'datetime', fieldType: 'date', groupName });
const owner = (groupName: string): Def => ({ name: 'hubspot_owner_id', label: 'Owner', type: 'enumeration', fieldType: 'select', groupName });

const LIFECYCLE = opts(['subscriber', 'Subscriber'], ['lead', 'Lead'], ['marketingqualifiedlead', 'Marketing Qualified Lead'], ['salesqualifiedlead', 'Sales Qualified Lead'],
  ['opportunity', 'Opportunity'], ['customer', 'Customer'], ['evangelist', 'Evangelist'], ['other', 'Other']);

const CONTACTS: Def[] = [
  text('firstname', 'First Name', 'contactinformation'), text('lastname', 'Last Name', 'contactinformation'),
  text('email', 'Email', 'contactinformation', { hasUniqueValue: false }), { name: 'phone', label: 'Phone Number', type: 'string', fieldType: 'phonenumber', groupName: 'contactinformation' },
  { name: 'mobilephone', label: 'Mobile Phone Number', type: 'string', fieldType: 'phonenumber', groupName: 'contactinformation' },
  text('company', 'Company Name', 'contactinformation'), text('jobtitle', 'Job Title', 'contactinformation'), text('website', 'Website URL', 'contactinformation'),
  text('address', 'Street Address', 'contactinformation'), text('city', 'City', 'contactinformation'), text('state', 'State/Region', 'contactinformation'),
  text('zip', 'Postal Code', 'contactinformation'), text('country', 'Country/Region', 'contactinformation'),
  { name: 'lifecyclestage', label: 'Lifecycle Stage', type: 'enumeration', fieldType: 'radio', groupName: 'contactinformation', options: LIFECYCLE },
  { name: 'hs_lead_status', label: 'Lead Status', type: 'enumeration', fieldType: 'radio', groupName: 'sales_properties', options: opts(['NEW', 'New'], ['OPEN', 'Open'], ['IN_PROGRESS', 'In Progress'], ['OPEN_DEAL', 'Open Deal'], ['UNQUALIFIED', 'Unqualified'], ['ATTEMPTED_TO_CONTACT', 'Attempted to Contact'], ['CONNECTED', 'Connected'], ['BAD_TIMING', 'Bad Timing']) },
  { name: 'hs_email_optout', label: 'Unsubscribed from all email', type: 'enumeration', fieldType: 'booleancheckbox', groupName: 'emailinformation', options: opts(['true', 'Yes'], ['false', 'No']) },
  owner('contactinformation'), dt('notes_last_updated', 'Last Activity Date', 'contactinformation'),
  dt('createdate', 'Create Date', 'contactinformation'), dt('lastmodifieddate', 'Last Modified Date', 'contactinformation'), num('hs_object_id', 'Record ID', 'contactinformation'),
];

const COMPANIES: Def[] = [
  text('name', 'Company name', 'companyinformation'), text('domain', 'Company Domain Name', 'companyinformation'), text('website', 'Website URL', 'companyinformation'),
  { name: 'phone', label: 'Phone Number', type: 'string', fieldType: 'phonenumber', groupName: 'companyinformation' },
  { name: 'industry', label: 'Industry', type: 'enumeration', fieldType: 'select', groupName: 'companyinformation', options: opts(['COMPUTER_SOFTWARE', 'Computer Software'], ['RETAIL', 'Retail'], ['APPAREL_FASHION', 'Apparel & Fashion'], ['FOOD_BEVERAGES', 'Food & Beverages'], ['HOSPITAL_HEALTH_CARE', 'Hospital & Health Care'], ['FINANCIAL_SERVICES', 'Financial Services'], ['LOGISTICS_AND_SUPPLY_CHAIN', 'Logistics and Supply Chain'], ['MARKETING_AND_ADVERTISING', 'Marketing and Advertising'], ['CONSTRUCTION', 'Construction'], ['EDUCATION_MANAGEMENT', 'Education Management']) },
  text('city', 'City', 'companyinformation'), text('state', 'State/Region', 'companyinformation'), text('country', 'Country/Region', 'companyinformation'),
  num('numberofemployees', 'Number of Employees', 'companyinformation'), num('annualrevenue', 'Annual Revenue', 'companyinformation'),
  { name: 'type', label: 'Type', type: 'enumeration', fieldType: 'select', groupName: 'companyinformation', options: opts(['PROSPECT', 'Prospect'], ['PARTNER', 'Partner'], ['RESELLER', 'Reseller'], ['VENDOR', 'Vendor'], ['OTHER', 'Other']) },
  { name: 'lifecyclestage', label: 'Lifecycle Stage', type: 'enumeration', fieldType: 'radio', groupName: 'companyinformation', options: LIFECYCLE },
  { name: 'description', label: 'Description', type: 'string', fieldType: 'textarea', groupName: 'companyinformation' }, owner('companyinformation'),
  dt('createdate', 'Create Date', 'companyinformation'), dt('hs_lastmodifieddate', 'Last Modified Date', 'companyinformation'), num('hs_object_id', 'Record ID', 'companyinformation'),
];

const DEALS: Def[] = [
  text('dealname', 'Deal Name', 'dealinformation'), num('amount', 'Amount', 'dealinformation'),
  { name: 'dealstage', label: 'Deal Stage', type: 'enumeration', fieldType: 'radio', groupName: 'dealinformation' },
  { name: 'pipeline', label: 'Pipeline', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation' },
  dt('closedate', 'Close Date', 'dealinformation'),
  { name: 'dealtype', label: 'Deal Type', type: 'enumeration', fieldType: 'radio', groupName: 'dealinformation', options: opts(['newbusiness', 'New Business'], ['existingbusiness', 'Existing Business']) },
  { name: 'description', label: 'Deal Description', type: 'string', fieldType: 'textarea', groupName: 'dealinformation' },
  { name: 'hs_priority', label: 'Priority', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation', options: opts(['low', 'Low'], ['medium', 'Medium'], ['high', 'High']) },
  { name: 'closed_lost_reason', label: 'Closed Lost Reason', type: 'string', fieldType: 'textarea', groupName: 'dealinformation' },
  owner('dealinformation'),
  dt('createdate', 'Create Date', 'dealinformation'), dt('hs_lastmodifieddate', 'Last Modified Date', 'dealinformation'), num('hs_object_id', 'Record ID', 'dealinformation'),
];

const TICKETS: Def[] = [
  text('subject', 'Ticket name', 'ticketinformation'), { name: 'content', label: 'Ticket description', type: 'string', fieldType: 'textarea', groupName: 'ticketinformation' },
  { name: 'hs_pipeline', label: 'Pipeline', type: 'enumeration', fieldType: 'select', groupName: 'ticketinformation' },
  { name: 'hs_pipeline_stage', label: 'Ticket status', type: 'enumeration', fieldType: 'select', groupName: 'ticketinformation' },
  { name: 'hs_ticket_priority', label: 'Priority', type: 'enumeration', fieldType: 'select', groupName: 'ticketinformation', options: opts(['LOW', 'Low'], ['MEDIUM', 'Medium'], ['HIGH', 'High'], ['URGENT', 'Urgent']) },
  { name: 'hs_ticket_category', label: 'Category', type: 'enumeration', fieldType: 'checkbox', groupName: 'ticketinformation', options: opts(['PRODUCT_ISSUE', 'Product issue'], ['BILLING_ISSUE', 'Billing issue'], ['FEATURE_REQUEST', 'Feature request'], ['GENERAL_INQUIRY', 'General inquiry']) },
  { name: 'source_type', label: 'Source', type: 'enumeration', fieldType: 'select', groupName: 'ticketinformation', options: opts(['CHAT', 'Chat'], ['EMAIL', 'Email'], ['FORM', 'Form'], ['PHONE', 'Phone']) },
  owner('ticketinformation'),
  dt('createdate', 'Create date', 'ticketinformation'), dt('hs_lastmodifieddate', 'Last modified date', 'ticketinformation'), num('hs_object_id', 'Record ID', 'ticketinformation'),
];

const PRODUCTS: Def[] = [
  text('name', 'Name', 'productinformation'), num('price', 'Unit price', 'productinformation'), text('hs_sku', 'SKU', 'productinformation'),
  { name: 'description', label: 'Description', type: 'string', fieldType: 'textarea', groupName: 'productinformation' },
  dt('createdate', 'Create Date', 'productinformation'), dt('hs_lastmodifieddate', 'Last Modified Date', 'productinformation'), num('hs_object_id', 'Record ID', 'productinformation'),
];

const LINE_ITEMS: Def[] = [
  text('name', 'Name', 'lineiteminformation'), num('quantity', 'Quantity', 'lineiteminformation'), num('price', 'Unit price', 'lineiteminformation'),
  num('amount', 'Net price', 'lineiteminformation'), num('hs_product_id', 'Product ID', 'lineiteminformation'), text('hs_sku', 'SKU', 'lineiteminformation'),
  dt('createdate', 'Create Date', 'lineiteminformation'), dt('hs_lastmodifieddate', 'Last Modified Date', 'lineiteminformation'), num('hs_object_id', 'Record ID', 'lineiteminformation'),
];

const NOTES: Def[] = [
  { name: 'hs_note_body', label: 'Note body', type: 'string', fieldType: 'html', groupName: 'note' }, dt('hs_timestamp', 'Activity date', 'engagement'), owner('engagement'),
  dt('hs_createdate', 'Create date', 'engagement'), dt('hs_lastmodifieddate', 'Last Modified Date', 'engagement'), num('hs_object_id', 'Record ID', 'engagement'),
];

const TASKS: Def[] = [
  text('hs_task_subject', 'Task title', 'task'), { name: 'hs_task_body', label: 'Task notes', type: 'string', fieldType: 'html', groupName: 'task' },
  { name: 'hs_task_status', label: 'Task status', type: 'enumeration', fieldType: 'select', groupName: 'task', options: opts(['NOT_STARTED', 'Not started'], ['IN_PROGRESS', 'In progress'], ['WAITING', 'Waiting'], ['COMPLETED', 'Completed'], ['DEFERRED', 'Deferred']) },
  { name: 'hs_task_priority', label: 'Priority', type: 'enumeration', fieldType: 'select', groupName: 'task', options: opts(['NONE', 'None'], ['LOW', 'Low'], ['MEDIUM', 'Medium'], ['HIGH', 'High']) },
  dt('hs_timestamp', 'Due date', 'engagement'), owner('engagement'),
  dt('hs_createdate', 'Create date', 'engagement'), dt('hs_lastmodifieddate', 'Last Modified Date', 'engagement'), num('hs_object_id', 'Record ID', 'engagement'),
];

/** By object type name. */
export const BUILT_IN_PROPERTIES: Readonly<Record<string, readonly Def[]>> = {
  contacts: CONTACTS, companies: COMPANIES, deals: DEALS, tickets: TICKETS, products: PRODUCTS, line_items: LINE_ITEMS, notes: NOTES, tasks: TASKS,
};

/** A complete definition from a short one. */
export function fullProperty(def: Def): PropertyDef {
  return { description: '', options: [], hasUniqueValue: false, hidden: false, formField: false, ...def };
}
