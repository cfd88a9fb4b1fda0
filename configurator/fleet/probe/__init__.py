"""The node probe: what a shell script collects on a GPU node, read back into facts.

`parsers` reads each command's output (plain Python, no Django), `archive` opens the uploaded
tar.gz safely, `facts` joins the outputs into one node's hardware facts and findings.
"""
