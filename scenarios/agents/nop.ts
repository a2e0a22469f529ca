// The nop agent: does nothing. Every scenario must give it reward 0.
process.stdout.write('nop: doing nothing\n');
