"""Prunes Stripe's OpenAPI description (the APIs.guru bundle's stripe.com.json) to what mocks/stripe
answers: python3 prune.py SOURCE.json stripe.openapi.json. See docs/provenance.md."""
import json,sys
s=json.load(open(sys.argv[1]))
paths={'/v1/customers':['get','post'],'/v1/customers/{customer}':['get','post','delete'],'/v1/products':['get','post'],'/v1/products/{id}':['get'],'/v1/prices':['get','post'],'/v1/prices/{price}':['get'],'/v1/payment_links':['post'],'/v1/payment_links/{payment_link}':['get'],'/v1/invoices':['get','post'],'/v1/invoices/{invoice}':['get'],'/v1/invoices/{invoice}/finalize':['post'],'/v1/invoiceitems':['get','post'],'/v1/balance':['get'],'/v1/coupons':['get','post'],'/v1/coupons/{coupon}':['get'],'/v1/refunds':['get','post'],'/v1/refunds/{refund}':['get'],'/v1/payment_intents':['get'],'/v1/payment_intents/{intent}':['get'],'/v1/charges':['get'],'/v1/charges/{charge}':['get'],'/v1/subscriptions':['get'],'/v1/subscriptions/{subscription_exposed_id}':['get','post','delete'],'/v1/disputes':['get'],'/v1/disputes/{dispute}':['get','post']}
KEEP={'customer','product','price','payment_link','invoice','invoiceitem','payment_intent','charge','refund','balance','subscription','subscription_item','coupon','dispute','error','api_errors','deleted_customer','discount','line_item','subscription_item'}
SC=s['components']['schemas']
def strip(o):
  if isinstance(o,dict):
    out={}
    for k,v in o.items():
      if k in ('description','x-stripeBypassValidation','x-stripeMostCommon','x-stripeOperations','x-stripeResource','x-resourceId','x-expandableFields','title','x-stripeParam','x-stripeEvent','x-stripeTranslations'): continue
      if k=='anyOf' and isinstance(v,list):
        nv=[]
        for b in v:
          if isinstance(b,dict) and '$ref' in b and b['$ref'].split('/')[-1] not in KEEP and 'x-expansionResources' in o:
            nv.append({'type':'object'})
          else: nv.append(strip(b))
        out[k]=nv
      elif k=='x-expansionResources': continue
      else: out[k]=strip(v)
    return out
  if isinstance(o,list): return [strip(x) for x in o]
  return o
def refs(o,acc):
  if isinstance(o,dict):
    for k,v in o.items():
      if k=='$ref': acc.add(v.split('/')[-1])
      else: refs(v,acc)
  elif isinstance(o,list):
    for v in o: refs(v,acc)
outpaths={}
acc=set()
for p,ms in paths.items():
  outpaths[p]={}
  for m in ms:
    op=s['paths'][p][m]
    keep={'operationId':op['operationId'],'responses':strip(op['responses'])}
    if 'parameters' in op: keep['parameters']=strip(op['parameters'])
    outpaths[p][m]=keep
    refs(keep,acc)
def cut(o):
  if isinstance(o,dict):
    if '$ref' in o and o['$ref'].split('/')[-1] not in KEEP: return {'type':'object'}
    return {k:cut(v) for k,v in o.items()}
  if isinstance(o,list): return [cut(x) for x in o]
  return o
seen={}
for n in KEEP: seen[n]=strip(SC[n])
for n in list(KEEP):
  a=set(); refs(seen[n],a)
  for c in a:
    if c not in seen: seen[c]=cut(strip(SC[c]))
for n in acc:
  if n not in seen: seen[n]=cut(strip(SC[n]))
info={'title':'Stripe API (pruned for toolbench)','version':s['info']['version'],'x-origin':s['info']['x-origin'],'x-toolbench-pruned':'Only the paths and schemas mocks/stripe answers; descriptions dropped; expandable references to other objects loosened to {type: object}. See docs/provenance.md.'}
out={'openapi':s['openapi'],'info':info,'servers':s.get('servers'),'paths':outpaths,'components':{'schemas':dict(sorted(seen.items()))}}
txt=json.dumps(out,separators=(',',':'))
print(len(seen),len(txt),file=sys.stderr)
open(sys.argv[2],'w').write(txt+'\n')
